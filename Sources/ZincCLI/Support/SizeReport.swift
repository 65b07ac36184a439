import Zinc

/// `{"files", "size", "unsized_files", "stored_size"}`: a version's sizes as `list --json`
/// and `list_bundle --json` give them (`size` the known content bytes, `unsized_files`
/// the files whose content size is recorded nowhere).
struct SizeReport: Encodable {
    let sizes: VersionSize

    private enum CodingKeys: CodingKey { case files, size, unsizedFiles, storedSize }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sizes.files, forKey: .files)
        try container.encode(sizes.content.bytes, forKey: .size)
        try container.encode(sizes.content.unknown, forKey: .unsizedFiles)
        try container.encode(sizes.stored.bytes, forKey: .storedSize)
    }
}

extension CatalogReference {
    /// What `list --sizes` and `list_bundle --sizes` say once when `unsized` files have no
    /// recorded content size: they are in versions imported before sizes files were, and
    /// the command that records them. Nil when every size is known.
    func contentSizesHint(unsized: Int) -> String? {
        guard unsized > 0 else { return nil }
        return "'—' and '+': content sizes of gzipped files not recorded (versions imported before sizes files); "
            + "\(hint("add_content_sizes")) records them"
    }
}
