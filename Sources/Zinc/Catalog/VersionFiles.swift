/// The files of one version of a bundle, named in one place: what an import writes for
/// it, what a failed import, `delete_bundle` and `clean` remove, what an import counts as
/// written. A new kind of version file is added here, and every operation follows.
///
/// The manifest's and version's signatures are not among them: they are written by `sign`
/// and named by key (`ManifestSignature`, `VersionSignature`), and go with the manifest
/// they sign. The digest list a version signature covers is among them: it is the same
/// for every key.
public struct VersionFiles: Equatable, Sendable {
    public let bundle: String
    public let version: Int

    public init(bundle: String, version: Int) {
        self.bundle = bundle
        self.version = version
    }

    package init(of manifest: Manifest) {
        self.init(bundle: manifest.bundle, version: manifest.version)
    }

    /// `manifests/B-V.json`: its appearance commits the version's files.
    public var manifest: String { Manifest.path(bundle: bundle, version: version) }

    /// `manifests/B-V.json.gz`, what clients download.
    public var gzippedManifest: String { manifest + ".gz" }

    /// `lmfo/B-V.json`, this tool's bookkeeping of the archive order.
    public var lmfoRecord: String { LMFORecord.path(bundle: bundle, version: version) }

    /// `chunks/B-V.json.gz`, where the chunks of its large objects are (see `ChunkList`).
    public var chunkList: String { ChunkList.path(bundle: bundle, version: version) }

    /// `sizes/B-V.json.gz`, the content sizes of its gzipped objects (see `ContentSizes`).
    public var contentSizes: String { ContentSizes.path(bundle: bundle, version: version) }

    /// `manifest-chunks/B-V.json.gz`, where the chunks of its manifest are (see `ManifestChunks`).
    public var manifestChunks: String { ManifestChunks.path(bundle: bundle, version: version) }

    /// `manifest-chunks/B-V.manifest.json.gz`, the chunk-deflated copy of a manifest
    /// written before `manifestChunks` were.
    public var manifestChunksCopy: String { ManifestChunks.copyPath(bundle: bundle, version: version) }

    /// `digests/B-V.txt.gz`, the SHA-256 of its objects' content that version signatures cover (see `DigestList`).
    public var digestList: String { DigestList.path(bundle: bundle, version: version) }

    /// `digests/B-V.chunks.json.gz`, where the chunks of its digest list are.
    public var digestListChunks: String { DigestList.chunksPath(bundle: bundle, version: version) }

    /// The archive of every file (`nil`) or of one flavor.
    public func archive(_ flavor: String?) -> String { Catalog.archivePath(bundle: bundle, version: version, flavor: flavor) }

    /// The files besides the archives: the manifest in both forms, the chunk list, the
    /// sizes file, the LMFO record, the manifest's chunk description (with its copy, for
    /// an older one) and, in a signed catalog, the digest list and its description.
    public var documents: [String] {
        [manifest, gzippedManifest, chunkList, contentSizes, lmfoRecord, manifestChunks, manifestChunksCopy, digestList, digestListChunks]
    }

    /// The documents and the archives of `archiveScopes` (nil: every file).
    public func all(archiveScopes: [String?]) -> [String] { documents + archiveScopes.map(archive) }

    /// Whether `path` is one of this version's archives, of any flavor: what a version
    /// whose manifest is gone may have left.
    public func isArchive(_ path: String) -> Bool {
        let whole = archive(nil)
        // Bundle names cannot hold '~', so this prefix belongs to this version alone.
        let flavorPrefix = whole.dropLast(".tar".count) + "~"
        return path == whole || (path.hasPrefix(flavorPrefix) && path.hasSuffix(".tar"))
    }
}
