// The errors as values, spelled as when ZincError was an enum: `throw
// ZincError.corruptFile(path:reason:)` and comparisons with `==` read as before. Package:
// the modules of this package make them; an app reads an error's `code`, `path`, `errno`.
extension ZincError {
    package static func catalogExists(_ path: String) -> ZincError {
        ZincError(kind: .catalogExists(path))
    }

    /// `lookedIn`: the folders searched; `suggestion`: the nearest catalog to what was typed.
    package static func catalogNotFound(_ location: String, lookedIn: [String] = [], suggestion: String? = nil) -> ZincError {
        ZincError(kind: .catalogNotFound(location, lookedIn: lookedIn, suggestion: suggestion))
    }

    package static func unsupportedFormat(path: String, format: String) -> ZincError {
        ZincError(kind: .unsupportedFormat(path: path, format: format))
    }

    package static func corruptFile(path: String, reason: String) -> ZincError {
        ZincError(kind: .corruptFile(path: path, reason: reason))
    }

    package static func invalidName(kind: String, value: String, reason: String) -> ZincError {
        ZincError(kind: .invalidName(kind: kind, value: value, reason: reason))
    }

    package static func invalidPath(_ path: String, reason: String) -> ZincError {
        ZincError(kind: .invalidPath(path, reason: reason))
    }

    package static func sourceProblem(path: String, reason: String) -> ZincError {
        ZincError(kind: .sourceProblem(path: path, reason: reason))
    }

    package static func emptySource(_ path: String) -> ZincError {
        ZincError(kind: .emptySource(path))
    }

    package static func bundleNotFound(_ bundle: String, suggestion: String? = nil) -> ZincError {
        ZincError(kind: .bundleNotFound(bundle, suggestion: suggestion))
    }

    package static func versionNotFound(bundle: String, version: String) -> ZincError {
        ZincError(kind: .versionNotFound(bundle: bundle, version: version))
    }

    package static func distroNotFound(bundle: String, distro: String, suggestion: String? = nil) -> ZincError {
        ZincError(kind: .distroNotFound(bundle: bundle, distro: distro, suggestion: suggestion))
    }

    /// `suggestion`: how to write it, when the word is a distribution's name without its `@`.
    package static func invalidVersionSpec(_ spec: String, suggestion: String? = nil) -> ZincError {
        ZincError(kind: .invalidVersionSpec(spec, suggestion: suggestion))
    }

    package static func io(path: String, operation: String, errno: Int32) -> ZincError {
        ZincError(kind: .io(path: path, operation: operation, errno: errno))
    }

    package static func integrity(path: String, reason: String) -> ZincError {
        ZincError(kind: .integrity(path: path, reason: reason))
    }

    /// A remote store (an S3 bucket) refused or failed a request; `reason` names the
    /// operation, the key and the store's own error code, never a credential.
    package static func remote(location: String, reason: String) -> ZincError {
        ZincError(kind: .remote(location: location, reason: reason))
    }

    /// An ignore pattern (`--exclude`, `.zincignore`) that cannot be used; `source` is
    /// where it came from (`.zincignore:3`, `--exclude`).
    package static func invalidPattern(source: String, pattern: String, reason: String) -> ZincError {
        ZincError(kind: .invalidPattern(source: source, pattern: pattern, reason: reason))
    }

    // Arguments a caller gave.

    /// An empty catalog location.
    package static let emptyCatalogLocation = ZincError(kind: .emptyCatalogLocation)

    /// A `file://` URL with no path after it.
    package static func locationNamesNoFolder(_ location: String) -> ZincError {
        ZincError(kind: .locationNamesNoFolder(location))
    }

    /// A URL where only a local catalog can be used.
    package static func notALocalCatalog(_ location: String) -> ZincError {
        ZincError(kind: .notALocalCatalog(location))
    }

    /// A `scheme://` location no registered storage backend opens; `known` lists the
    /// schemes that are.
    package static func unknownStorageScheme(location: String, scheme: String, known: [String]) -> ZincError {
        ZincError(kind: .unknownStorageScheme(location: location, scheme: scheme, known: known))
    }

    /// A version of a bundle does not have the flavor asked for; `flavors` are the ones
    /// it has.
    package static func flavorNotFound(bundle: String, version: Int, flavor: String, flavors: [String]) -> ZincError {
        ZincError(kind: .flavorNotFound(bundle: bundle, version: version, flavor: flavor, flavors: flavors))
    }

    /// A flavorspec file that does not exist.
    package static func flavorspecFileNotFound(_ path: String) -> ZincError {
        ZincError(kind: .flavorspecFileNotFound(path))
    }

    /// No flavorspec stored under `name` in the catalog at `catalog`.
    package static func flavorspecNotStored(name: String, catalog: String) -> ZincError {
        ZincError(kind: .flavorspecNotStored(name: name, catalog: catalog))
    }

    /// `spec` is neither a flavorspec file nor the name of one stored in the catalog.
    package static func flavorspecNotFound(spec: String, catalog: String) -> ZincError {
        ZincError(kind: .flavorspecNotFound(spec: spec, catalog: catalog))
    }

    /// A clone's destination is a symlink, which a clone never writes through.
    package static func cloneDestinationIsSymlink(_ path: String) -> ZincError {
        ZincError(kind: .cloneDestinationIsSymlink(path))
    }

    /// A clone's destination already exists.
    package static func cloneDestinationExists(_ path: String) -> ZincError {
        ZincError(kind: .cloneDestinationExists(path))
    }

    /// A file name too long for a tar header of an archive.
    package static func tarMemberNameTooLong(_ name: String) -> ZincError {
        ZincError(kind: .tarMemberNameTooLong(name))
    }

    /// A negative size for a member of an archive.
    package static func negativeTarMemberSize(name: String, size: Int64) -> ZincError {
        ZincError(kind: .negativeTarMemberSize(name: name, size: size))
    }

    /// `prune --keep-last` with a count below 1.
    package static func pruneKeepsNoVersion(keepLast: Int) -> ZincError {
        ZincError(kind: .pruneKeepsNoVersion(keepLast: keepLast))
    }

    // Another writer, or a damaged state, got in the way; nothing was committed.

    /// The catalog stayed locked by `holders` for longer than the writer was willing to
    /// wait.
    package static func catalogLocked(location: String, holders: [LockHolder], waited: Duration) -> ZincError {
        ZincError(kind: .catalogLocked(location: location, holders: holders, waited: waited))
    }

    /// This writer's lock went unrefreshed for `stalledFor`, so another writer may have
    /// taken it over.
    package static func lockNotRefreshed(lock: String, stalledFor: Duration) -> ZincError {
        ZincError(kind: .lockNotRefreshed(lock: lock, stalledFor: stalledFor))
    }

    /// This writer's lock was removed by another writer.
    package static func lockRemoved(lock: String) -> ZincError {
        ZincError(kind: .lockRemoved(lock: lock))
    }

    /// A file named after a version number (a manifest, an archive, an LMFO record)
    /// already exists: another writer used that number.
    package static func versionFileExists(_ path: String) -> ZincError {
        ZincError(kind: .versionFileExists(path))
    }

    /// An object disappeared while it was being stored.
    package static func objectVanished(sha: String) -> ZincError {
        ZincError(kind: .objectVanished(sha: sha))
    }

    /// An index about to be written lists a version of a bundle twice.
    package static func duplicateIndexVersion(bundle: String, version: Int) -> ZincError {
        ZincError(kind: .duplicateIndexVersion(bundle: bundle, version: version))
    }

    /// An index about to be written has a bundle's `next_version` at or below a version
    /// it lists.
    package static func nextVersionBelowListed(bundle: String, version: Int) -> ZincError {
        ZincError(kind: .nextVersionBelowListed(bundle: bundle, version: version))
    }

    /// The index was changed by other writers on every one of `attempts` tries.
    package static func indexKeptChanging(location: String, attempts: Int) -> ZincError {
        ZincError(kind: .indexKeptChanging(location: location, attempts: attempts))
    }

    /// The index changed while its copies (`index.json`, `catalog.json`, gzipped) were
    /// written.
    package static func indexCopiesKeptChanging(location: String) -> ZincError {
        ZincError(kind: .indexCopiesKeptChanging(location: location))
    }

    /// The index changed on every try to sign it.
    package static func indexChangedWhileSigning(location: String) -> ZincError {
        ZincError(kind: .indexChangedWhileSigning(location: location))
    }

    /// The index changed while a version was committed.
    package static func indexChangedDuringCommit(location: String, bundle: String, version: Int) -> ZincError {
        ZincError(kind: .indexChangedDuringCommit(location: location, bundle: bundle, version: version))
    }

    /// The version number reserved by this import was listed by another writer.
    package static func reservedVersionTaken(location: String, bundle: String, version: Int) -> ZincError {
        ZincError(kind: .reservedVersionTaken(location: location, bundle: bundle, version: version))
    }

    /// A bundle has used every version number up to ``CatalogIndex/maximumVersion``.
    package static func versionNumbersExhausted(bundle: String) -> ZincError {
        ZincError(kind: .versionNumbersExhausted(bundle: bundle))
    }

    /// Versions to delete that distributions still point at: version → distributions.
    package static func versionsReferenced(bundle: String, distributions: [Int: [String]]) -> ZincError {
        ZincError(kind: .versionsReferenced(bundle: bundle, distributions: distributions))
    }

    /// A change a rollout of `bundle`'s `distro` forbids, or that its state does not allow.
    package static func rolloutConflict(bundle: String, distro: String, reason: String) -> ZincError {
        ZincError(kind: .rolloutConflict(bundle: bundle, distro: distro, reason: reason))
    }

    /// A source file of `publish` disappeared before it was copied.
    package static func publishSourceVanished(_ path: String) -> ZincError {
        ZincError(kind: .publishSourceVanished(path))
    }

    /// A destination file of `publish` appeared meanwhile with other content.
    package static func publishDestinationChanged(_ path: String) -> ZincError {
        ZincError(kind: .publishDestinationChanged(path))
    }

    /// An immutable destination file of `publish` differs in size from its source.
    package static func publishDestinationDiffers(destination: String, source: String, size: Int64, expected: Int64) -> ZincError {
        ZincError(kind: .publishDestinationDiffers(destination: destination, source: source, size: size, expected: expected))
    }

    /// The destination of `publish` holds another catalog.
    package static func publishDestinationIsOtherCatalog(destination: String, id: String, expected: String) -> ZincError {
        ZincError(kind: .publishDestinationIsOtherCatalog(destination: destination, id: id, expected: expected))
    }

    /// The destination of `publish` lists versions the source never had: bundle →
    /// versions.
    package static func publishDestinationHasForeignVersions(
        destination: String, source: String, versions: [String: [Int]]
    ) -> ZincError {
        ZincError(kind: .publishDestinationHasForeignVersions(destination: destination, source: source, versions: versions))
    }

    // Signing.

    /// A signing key or public key file that cannot be used (or written).
    package static func keyFile(path: String, reason: String) -> ZincError {
        ZincError(kind: .keyFile(path: path, reason: reason))
    }

    /// A catalog signature that is malformed, made by no trusted key, or covering other
    /// bytes than the file it signs; `path` is the signature file or the file signed.
    package static func signature(path: String, reason: String) -> ZincError {
        ZincError(kind: .signature(path: path, reason: reason))
    }

    /// A change to the index of the signed catalog at this location without a signer:
    /// clients that trust its key would refuse the unsigned index.
    package static func signedCatalogNeedsSigner(_ location: String) -> ZincError {
        ZincError(kind: .signedCatalogNeedsSigner(location))
    }
}
