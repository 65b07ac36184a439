import Zinc

/// `{"files", "size", "unsized_files", "stored_size"}`: a version's sizes as `list --json`
/// and `list_bundle --json` give them (`size` the known content bytes, `unsized_files`
/// the files whose content size is recorded nowhere).
struct SizeReport: Encodable {
    let sizes: VersionSize

    private enum CodingKeys: String, CodingKey {
        case files, size
        case unsizedFiles = "unsized_files"
        case storedSize = "stored_size"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sizes.files, forKey: .files)
        try container.encode(sizes.content.bytes, forKey: .size)
        try container.encode(sizes.content.unknown, forKey: .unsizedFiles)
        try container.encode(sizes.stored.bytes, forKey: .storedSize)
    }
}
