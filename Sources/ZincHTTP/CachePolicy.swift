/// Caching and typing of catalog files, from their path relative to the catalog root:
/// what `zinc serve` answers with and what the S3 backend stores with each upload.
package enum CachePolicy {
    package static let shortLived = "max-age=300"
    package static let immutable = "public, max-age=31536000, immutable"
    /// A rollout file: how long a halt may take to reach a client that syncs.
    package static let rollout = "max-age=60"

    private static let indexFiles: Set<String> = ["catalog.json", "catalog.json.gz", "index.json", "index.json.gz"]
    /// Files below these folders are content-addressed or versioned and never rewritten, so
    /// caches may keep them forever. The index that points at them is what changes.
    private static let immutableFolders: Set<String> = [
        "manifests", "objects", "archives", "chunks", "sizes", "manifest-chunks", "digests",
    ]

    package static func cacheControl(catalogPath: [String]) -> String {
        if catalogPath.count == 1 && indexFiles.contains(catalogPath[0]) { return shortLived }
        if catalogPath.count > 1 && immutableFolders.contains(catalogPath[0]) { return immutable }
        // A manifest's and a version's signatures never change either (each key writes its
        // own file); the index signature (`signatures/catalog.json.sig`) changes with the index.
        if catalogPath.count > 2 && catalogPath[0] == "signatures" && ["manifests", "versions"].contains(catalogPath[1]) {
            return immutable
        }
        // A rollout's log copies never change; the rollout file itself changes with it.
        if catalogPath.count > 1 && catalogPath[0] == "rollouts" { return catalogPath[1] == "log" ? immutable : rollout }
        return shortLived
    }

    /// `.gz` files are sent as the bytes they are: clients gunzip them themselves, so announcing
    /// `Content-Encoding: gzip` would make HTTP stacks inflate them behind the client's back.
    package static func contentType(fileName: String) -> String {
        if fileName.hasSuffix(".json") { return "application/json" }
        if fileName.hasSuffix(".gz") { return "application/gzip" }
        if fileName.hasSuffix(".tar") { return "application/x-tar" }
        if fileName.hasSuffix(".rollout") { return "text/plain; charset=utf-8" }
        return "application/octet-stream"
    }
}

extension CachePolicy {
    /// The policy for a catalog-relative path (`objects/ab/cd/…`).
    package static func cacheControl(path: String) -> String {
        cacheControl(catalogPath: path.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
    }
}
