extension CatalogVerifier {
    /// What the versions' sizes files say of each gzipped object's content size: by
    /// object, each size given and the first file giving it, for the object's check to
    /// compare with what its bytes inflate to. Each file is checked against its manifest
    /// here: it lists exactly the version's objects stored gzipped only. A version without
    /// one (imported before sizes files) is no problem.
    func loadContentSizes(of manifests: [Manifest]) -> [SHA1.Digest: [Int64: String]] {
        var claims = [SHA1.Digest: [Int64: String]]()
        for manifest in manifests {
            let path = VersionFiles(of: manifest).contentSizes
            guard let file = readReporting(path, { try catalog.readContentSizes(bundle: manifest.bundle, version: manifest.version) })
            else { continue }
            let objects = manifest.objectsByDigest(flavor: nil)
            for (digest, size) in file.sizes.sorted(by: { $0.key < $1.key }) {
                guard let object = objects[digest] else {
                    report(path, "lists \(digest.hex), which the version does not have")
                    continue
                }
                guard ContentSizes.needsEntry(object) else {
                    report(path, "lists \(digest.hex), which the version stores raw (its manifest gives its size)")
                    continue
                }
                if claims[digest]?[size] == nil { claims[digest, default: [:]][size] = path }
            }
            for digest in objects.keys.sorted() where ContentSizes.needsEntry(objects[digest]!) && file.sizes[digest] == nil {
                report(path, "lacks the content size of \(digest.hex), which the version stores gzipped")
            }
        }
        return claims
    }

    /// The problems of the sizes `claims` gives an object whose content is `contentSize` bytes.
    static func contentSizeProblems(_ claims: [Int64: String], sha: String, contentSize: Int64) -> [Problem] {
        claims.filter { $0.key != contentSize }.sorted { $0.value < $1.value }.map {
            Problem(path: $0.value, problem: "gives \(sha) a content size of \($0.key) bytes; its content is \(contentSize)")
        }
    }
}
