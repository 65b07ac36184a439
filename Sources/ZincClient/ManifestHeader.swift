import Zinc

/// What a manifest says of its version besides its files: a reader that holds the files
/// in a `CompactManifest` (or none of them) keeps this beside it.
struct ManifestHeader: Sendable, Equatable {
    let catalog: String
    let bundle: String
    let version: Int
    /// Every flavor some file has, in the manifest's order.
    let flavors: [String]
    /// The files of the whole version, every flavor's.
    let fileCount: Int

    init(catalog: String, bundle: String, version: Int, flavors: [String], fileCount: Int) {
        self.catalog = catalog
        self.bundle = bundle
        self.version = version
        self.flavors = flavors
        self.fileCount = fileCount
    }

    /// The header of `manifest`, parsed with its files visited (so `files` is empty), and
    /// `fileCount` counted by the visit.
    init(_ manifest: Manifest, fileCount: Int) {
        catalog = manifest.catalog
        bundle = manifest.bundle
        version = manifest.version
        flavors = manifest.flavors
        self.fileCount = fileCount
    }

    /// Refuses a flavor the version does not have, rather than answering with no files.
    func requireFlavor(_ flavor: String?) throws {
        if let flavor, !flavors.contains(flavor) {
            throw ZincError.flavorNotFound(bundle: bundle, version: version, flavor: flavor, flavors: flavors)
        }
    }
}
