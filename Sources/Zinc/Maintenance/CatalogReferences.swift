/// The files a catalog's versions make part of it: what a clean keeps, and what deleting
/// versions may free.
struct CatalogReferences {
    let catalog: Catalog

    /// Every manifest, archive and object file that a version listed by any copy of the
    /// index refers to, leaving out the versions in `excluding` (what a deletion would
    /// leave referenced). A version's archives count only while a pointer of some copy
    /// names it, unless the catalog keeps every archive (see `ArchivePolicy`). A manifest
    /// removed after the copies were read (by a tool that deletes versions at once) is
    /// skipped once no copy lists its version any more.
    func files(excluding: Set<BundleVersion> = []) throws -> Set<String> {
        var listed = Set<BundleVersion>()
        var pointed = Set<BundleVersion>()
        for copy in try catalog.indexCopies() {
            for (name, bundle) in copy.bundles {
                for version in bundle.versions { listed.insert(BundleVersion(bundle: name, version: version)) }
            }
            pointed.formUnion(copy.pointedVersions)
            // A rollout's candidate is in use as a pointer's version is.
            pointed.formUnion(try catalog.rolloutCandidates(in: copy))
        }
        let keepsAll = try catalog.archivePolicy() == .all
        var referenced = Set<String>()
        for item in listed.subtracting(excluding) {
            let manifest: Manifest
            do {
                manifest = try catalog.manifest(bundle: item.bundle, version: item.version)
            } catch {
                let stillListed = try catalog.indexCopies().contains {
                    $0.bundles[item.bundle]?.versions.contains(item.version) == true
                }
                if !stillListed { continue }
                // Without it, the objects this version uses are unknown: removing nothing is the only safe answer.
                throw ZincError.integrity(
                    path: catalog.storage.location + "/" + Manifest.path(bundle: item.bundle, version: item.version),
                    reason: "\(error); clean removed nothing (run verify)")
            }
            referenced.formUnion(Self.files(of: manifest, withArchives: keepsAll || pointed.contains(item)))
        }
        return referenced
    }

    /// The files a version's manifest makes part of the catalog: the manifest itself,
    /// its chunk list and LMFO record, its objects, and (`withArchives`: while its
    /// archives are in use) its archives, any that may exist.
    static func files(of manifest: Manifest, withArchives: Bool) -> Set<String> {
        var files = Set(VersionFiles(of: manifest).all(archiveScopes: withArchives ? [nil] + manifest.flavors : []))
        for entry in manifest.files.values {
            let object = entry.object
            if object.sizes.gz >= 0 { files.insert(StoredObject.path(digest: object.digest, format: .gz)) }
            if object.sizes.raw >= 0 { files.insert(StoredObject.path(digest: object.digest, format: .raw)) }
        }
        return files
    }
}

/// A version of a bundle.
struct BundleVersion: Hashable {
    let bundle: String
    let version: Int
}
