extension CatalogVerifier {
    /// What the versions' sizes files say of each gzipped object's content size: by
    /// object, each size given and the first file giving it, for the object's check to
    /// compare with what its bytes inflate to. Each file is checked against its manifest
    /// here: it lists exactly the version's objects stored gzipped only. A version without
    /// one (imported before sizes files) is no problem.
    func loadContentSizes(of manifests: [Manifest]) -> [SHA1.Digest: [Int64: String]] {
        var claims = [SHA1.Digest: [Int64: String]]()
        walkObjectLists(
            of: manifests, at: \.contentSizes,
            read: { try catalog.readContentSizes(bundle: $0.bundle, version: $0.version)?.sizes },
            visit: { path, digest, size, object in
                guard ContentSizes.needsEntry(object) else {
                    report(path, "lists \(digest.hex), which the version stores raw (its manifest gives its size)")
                    return
                }
                if claims[digest]?[size] == nil { claims[digest, default: [:]][size] = path }
            },
            finish: { path, sizes, objects in
                for digest in objects.keys.sorted() where ContentSizes.needsEntry(objects[digest]!) && sizes[digest] == nil {
                    report(path, "lacks the content size of \(digest.hex), which the version stores gzipped")
                }
            })
        return claims
    }

    /// The problems of the sizes `claims` gives an object whose content is `contentSize` bytes.
    static func contentSizeProblems(_ claims: [Int64: String], sha: String, contentSize: Int64) -> [Problem] {
        claims.filter { $0.key != contentSize }.sorted { $0.value < $1.value }.map {
            Problem(path: $0.value, problem: "gives \(sha) a content size of \($0.key) bytes; its content is \(contentSize)")
        }
    }
}
