#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every failure Zinc reports to a user. Each names the offending file or value, so a
/// build pipeline log says what to fix without a debugger, and ``description`` is the
/// one place that words them. A program embedding the library branches on ``code``, a
/// stable string that can gain values without breaking its `switch` (as long as it has a
/// `default`), and reads ``path`` and ``errno`` where it needs them; see
/// <doc:HandlingErrors> for what to do for each code.
public struct ZincError: Error, Equatable, Sendable {
    package let kind: Kind

    /// The file, folder or catalog location at fault, where the failure names one: the
    /// file that is damaged or cannot be read, the location of a catalog that is missing
    /// or locked, the destination that is taken. Nil when what is at fault is a value
    /// (a name, a version, an argument).
    public var path: String? {
        switch kind {
        case .catalogExists(let path), .catalogNotFound(let path, _, _), .unsupportedFormat(let path, _),
            .corruptFile(let path, _), .invalidPath(let path, _), .sourceProblem(let path, _), .emptySource(let path),
            .io(let path, _, _), .integrity(let path, _), .remote(let path, _), .locationNamesNoFolder(let path),
            .notALocalCatalog(let path), .unknownStorageScheme(let path, _, _), .flavorspecFileNotFound(let path),
            .flavorspecNotStored(_, let path), .flavorspecNotFound(_, let path), .cloneDestinationIsSymlink(let path),
            .cloneDestinationExists(let path), .catalogLocked(let path, _, _), .lockNotRefreshed(let path, _),
            .lockRemoved(let path), .versionFileExists(let path), .indexKeptChanging(let path, _),
            .indexCopiesKeptChanging(let path), .indexChangedWhileSigning(let path), .indexChangedDuringCommit(let path, _, _),
            .reservedVersionTaken(let path, _, _), .publishSourceVanished(let path), .publishDestinationChanged(let path),
            .publishDestinationDiffers(let path, _, _, _), .publishDestinationIsOtherCatalog(let path, _, _),
            .publishDestinationHasForeignVersions(let path, _, _), .keyFile(let path, _), .signature(let path, _),
            .signedCatalogNeedsSigner(let path):
            return path
        case .invalidName, .bundleNotFound, .versionNotFound, .distroNotFound, .invalidVersionSpec, .invalidPattern,
            .emptyCatalogLocation, .flavorNotFound, .tarMemberNameTooLong, .negativeTarMemberSize, .pruneKeepsNoVersion,
            .objectVanished, .duplicateIndexVersion, .nextVersionBelowListed, .versionNumbersExhausted, .versionsReferenced,
            .rolloutConflict:
            return nil
        }
    }

    /// The system's error number of an ``Code/io`` failure (`ENOSPC`, `EACCES`, …); nil
    /// for every other code.
    public var errno: Int32? {
        guard case .io(_, _, let code) = kind else { return nil }
        return code
    }

    /// A writer holding a lock on a catalog, as ``catalogLocked(location:holders:waited:)``
    /// names it.
    package struct LockHolder: Equatable, Sendable {
        package var exclusive: Bool
        package var pid: Int
        package var host: String

        package init(exclusive: Bool, pid: Int, host: String) {
            self.exclusive = exclusive
            self.pid = pid
            self.host = host
        }
    }
}

extension ZincError: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .catalogExists(let path):
            return "a catalog already exists at '\(path)'"
        case .signedCatalogNeedsSigner(let location):
            return "the catalog at '\(location)' is signed: this change would leave its index unsigned, "
                + "and clients that trust its key would refuse it until it is signed again"
        case .catalogNotFound(let location, let folders, let suggestion):
            let searched = folders.isEmpty ? "" : " (no catalog.json in " + folders.joined(separator: " or ") + ")"
            return "no catalog at '\(location)'" + searched + Self.didYouMean(suggestion)
        case .unsupportedFormat(let path, let format):
            return "'\(path)' is in catalog format '\(format)'; this zinc reads and writes format '1' only"
        case .corruptFile(let path, let reason):
            return "'\(path)' is not a valid Zinc file: \(reason)"
        case .invalidName(let kind, let value, let reason):
            return "invalid \(kind) '\(value)': \(reason)"
        case .invalidPath(let path, let reason):
            return "invalid path '\(path)': \(reason)"
        case .sourceProblem(let path, let reason):
            return "'\(path)': \(reason)"
        case .emptySource(let path):
            return "source folder '\(path)' holds no files"
        case .bundleNotFound(let bundle, let suggestion):
            return "no bundle '\(bundle)' in the catalog" + Self.didYouMean(suggestion)
        case .versionNotFound(let bundle, let version):
            return "bundle '\(bundle)' has no version \(version)"
        case .distroNotFound(let bundle, let distro, let suggestion):
            return "bundle '\(bundle)' has no distribution '\(distro)'" + Self.didYouMean(suggestion)
        case .invalidVersionSpec(let spec, let suggestion):
            return "invalid version '\(spec)': expected a number, 'latest' or '@DISTRO'" + Self.didYouMean(suggestion)
        case .io(let path, let operation, let code):
            return "cannot \(operation) '\(path)': \(String(cString: strerror(code)))"
        case .integrity(let path, let reason):
            return "'\(path)' is damaged: \(reason)"
        case .remote(let location, let reason):
            return "\(location): \(reason)"
        case .invalidPattern(let source, let pattern, let reason):
            return "\(source): '\(pattern)' \(reason)"
        case .emptyCatalogLocation:
            return "the catalog location is empty"
        case .locationNamesNoFolder(let location):
            return "'\(location)' names no folder"
        case .notALocalCatalog(let location):
            return "'\(location)': only local catalogs (a path or file:// URL) are supported here"
        case .unknownStorageScheme(let location, let scheme, let known):
            let schemes = known.map { "\($0)://" }.joined(separator: ", ")
            return "'\(location)': no storage backend for \(scheme):// (known: \(schemes), or a plain path)"
        case .flavorNotFound(let bundle, let version, let flavor, let flavors):
            let known = flavors.isEmpty ? "it has no flavors" : "its flavors: " + flavors.joined(separator: ", ")
            return "bundle '\(bundle)' version \(version) has no flavor '\(flavor)' (\(known))"
        case .flavorspecFileNotFound(let path):
            return "no flavorspec file at '\(path)'"
        case .flavorspecNotStored(let name, let catalog):
            return "no flavorspec named '\(name)' stored in catalog '\(catalog)'"
        case .flavorspecNotFound(let spec, let catalog):
            return "no flavorspec file '\(spec)' and no flavorspec named '\(spec)' stored in catalog '\(catalog)'"
        case .cloneDestinationIsSymlink(let path):
            return "'\(path)' is a symlink; a clone never writes through one"
        case .cloneDestinationExists(let path):
            return "'\(path)' already exists; remove it or clone into another folder"
        case .tarMemberNameTooLong(let name):
            return "tar member name '\(name)' is longer than 100 bytes"
        case .negativeTarMemberSize:
            return "negative tar member size"
        case .pruneKeepsNoVersion(let keepLast):
            return "keeping the last \(keepLast) versions would delete every version; keep at least 1"
        case .catalogLocked(let location, let holders, let waited):
            return "'\(location)' is locked (\(holders.map(\.description).joined(separator: ", "))); "
                + "gave up after waiting \(waited)"
        case .lockNotRefreshed(let lock, let stalledFor):
            return "the lock '\(lock)' was not refreshed for \(stalledFor) (this process stalled, or the storage failed); "
                + "another writer may have taken it as stale, so nothing was committed"
        case .lockRemoved(let lock):
            return "the lock '\(lock)' was removed by another writer; nothing was committed"
        case .versionFileExists(let path):
            return "'\(path)' already exists; another writer used this version number"
        case .objectVanished(let sha):
            return "object \(sha) vanished while it was being stored"
        case .duplicateIndexVersion(let bundle, let version):
            return "refusing to write an index that lists version \(version) of '\(bundle)' twice"
        case .nextVersionBelowListed(let bundle, let version):
            return "refusing to write an index whose next_version of '\(bundle)' is below version \(version)"
        case .indexKeptChanging(let location, let attempts):
            return "the index of '\(location)' kept changing under this writer (\(attempts) attempts); try again"
        case .indexCopiesKeptChanging(let location):
            return "the index of '\(location)' kept changing while its copies were written; try again"
        case .indexChangedWhileSigning(let location):
            return "the index of '\(location)' kept changing while it was signed; try again"
        case .indexChangedDuringCommit(let location, let bundle, let version):
            return "the index of '\(location)' kept changing while version \(version) of '\(bundle)' was committed; try again"
        case .reservedVersionTaken(let location, let bundle, let version):
            return "version \(version) of '\(bundle)', reserved by this import, is already listed in the index of "
                + "'\(location)' by another writer; nothing was committed"
        case .versionNumbersExhausted(let bundle):
            return "bundle '\(bundle)' has used every version number up to \(CatalogIndex.maximumVersion)"
        case .versionsReferenced(let bundle, let distributions):
            let refusals = distributions.sorted { $0.key < $1.key }.map { version, distros in
                "version \(version) of '\(bundle)' is referenced by distribution\(distros.count == 1 ? "" : "s") "
                    + distros.map { "'\($0)'" }.joined(separator: ", ")
            }
            return refusals.joined(separator: "; ") + "; nothing was deleted"
        case .rolloutConflict(let bundle, let distro, let reason):
            return "rollout of distribution '\(distro)' of '\(bundle)': \(reason)"
        case .publishSourceVanished(let path):
            return "'\(path)' vanished while publishing; run publish again"
        case .publishDestinationChanged(let path):
            return "'\(path)' appeared meanwhile with other content"
        case .publishDestinationDiffers(let destination, let source, let size, let expected):
            return "'\(destination)' differs from '\(source)' (\(size) bytes, not \(expected)): another writer or another "
                + "catalog wrote the destination; nothing was published"
        case .publishDestinationIsOtherCatalog(let destination, let id, let expected):
            return "'\(destination)' is the catalog '\(id)', not '\(expected)'; nothing was published"
        case .publishDestinationHasForeignVersions(let destination, let source, let versions):
            let foreign = versions.sorted { $0.key < $1.key }.flatMap { name, numbers in numbers.map { "\(name) v\($0)" } }
            return "'\(destination)' lists versions '\(source)' never had (\(foreign.prefix(5).joined(separator: ", "))"
                + "\(foreign.count > 5 ? ", …" : "")): another writer published there; nothing was replaced"
        case .keyFile(let path, let reason):
            return "key file '\(path)': \(reason)"
        case .signature(let path, let reason):
            return "'\(path)': signature check failed: \(reason)"
        }
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}

extension ZincError.LockHolder: CustomStringConvertible {
    package var description: String { "\(exclusive ? "an exclusive" : "a shared") lock of pid \(pid) on \(host)" }
}
