extension CatalogVerifier {
    /// Goes through each version's document that lists objects by digest (its chunk list,
    /// its sizes file): read by `read` (one that cannot be read is reported; a version
    /// without one is no problem), its entries in digest order, reporting an entry for an
    /// object the version does not have and giving each other to `visit` with the
    /// version's object; then `finish` sees the whole document beside the version's objects.
    func walkObjectLists<Entry>(
        of manifests: [Manifest], at path: (VersionFiles) -> String, read: (Manifest) throws -> [SHA1.Digest: Entry]?,
        visit: (_ path: String, _ digest: SHA1.Digest, _ entry: Entry, _ object: StoredObject) -> Void,
        finish: (_ path: String, _ entries: [SHA1.Digest: Entry], _ objects: [SHA1.Digest: StoredObject]) -> Void = { _, _, _ in }
    ) {
        for manifest in manifests {
            let path = path(VersionFiles(of: manifest))
            guard let entries = readReporting(path, { try read(manifest) }) else { continue }
            let objects = manifest.objectsByDigest(flavor: nil)
            for (digest, entry) in entries.sorted(by: { $0.key < $1.key }) {
                guard let object = objects[digest] else {
                    report(path, "lists \(digest.hex), which the version does not have")
                    continue
                }
                visit(path, digest, entry, object)
            }
            finish(path, entries, objects)
        }
    }
}
