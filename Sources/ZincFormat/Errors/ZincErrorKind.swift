extension ZincError {
    /// What went wrong, with the values that name it: the targets of this package switch
    /// on it, while apps see ``ZincError/code``, which can gain values without breaking
    /// their `switch`. The factory of the same name on ``ZincError`` documents each case.
    package enum Kind: Equatable, Sendable {
        case catalogExists(String)
        case catalogNotFound(String, lookedIn: [String], suggestion: String?)
        case unsupportedFormat(path: String, format: String)
        case corruptFile(path: String, reason: String)
        case invalidName(kind: String, value: String, reason: String)
        case invalidPath(String, reason: String)
        case sourceProblem(path: String, reason: String)
        case emptySource(String)
        case bundleNotFound(String, suggestion: String?)
        case versionNotFound(bundle: String, version: String)
        case distroNotFound(bundle: String, distro: String, suggestion: String?)
        case invalidVersionSpec(String, suggestion: String?)
        case io(path: String, operation: String, errno: Int32)
        case integrity(path: String, reason: String)
        case remote(location: String, reason: String)
        case invalidPattern(source: String, pattern: String, reason: String)

        // Arguments a caller gave.
        case emptyCatalogLocation
        case locationNamesNoFolder(String)
        case notALocalCatalog(String)
        case unknownStorageScheme(location: String, scheme: String, known: [String])
        case flavorNotFound(bundle: String, version: Int, flavor: String, flavors: [String])
        case flavorspecFileNotFound(String)
        case flavorspecNotStored(name: String, catalog: String)
        case flavorspecNotFound(spec: String, catalog: String)
        case cloneDestinationIsSymlink(String)
        case cloneDestinationExists(String)
        case tarMemberNameTooLong(String)
        case negativeTarMemberSize(name: String, size: Int64)
        case pruneKeepsNoVersion(keepLast: Int)

        // Another writer, or a damaged state, got in the way; nothing was committed.
        case catalogLocked(location: String, holders: [LockHolder], waited: Duration)
        case lockNotRefreshed(lock: String, stalledFor: Duration)
        case lockRemoved(lock: String)
        case versionFileExists(String)
        case objectVanished(sha: String)
        case duplicateIndexVersion(bundle: String, version: Int)
        case nextVersionBelowListed(bundle: String, version: Int)
        case indexKeptChanging(location: String, attempts: Int)
        case indexCopiesKeptChanging(location: String)
        case indexChangedWhileSigning(location: String)
        case indexChangedDuringCommit(location: String, bundle: String, version: Int)
        case reservedVersionTaken(location: String, bundle: String, version: Int)
        case versionNumbersExhausted(bundle: String)
        case versionsReferenced(bundle: String, distributions: [Int: [String]])
        case publishSourceVanished(String)
        case publishDestinationChanged(String)
        case publishDestinationDiffers(destination: String, source: String, size: Int64, expected: Int64)
        case publishDestinationIsOtherCatalog(destination: String, id: String, expected: String)
        case publishDestinationHasForeignVersions(destination: String, source: String, versions: [String: [Int]])

        // Signing.
        case keyFile(path: String, reason: String)
        case signature(path: String, reason: String)
        case signedCatalogNeedsSigner(String)
        case rolloutConflict(bundle: String, distro: String, reason: String)
    }
}
