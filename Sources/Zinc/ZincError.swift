#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every failure Zinc reports to a user. Each case names the offending file or value,
/// so a build pipeline log says what to fix without a debugger, and a program embedding
/// the library can switch on what went wrong. ``description`` is the one place that
/// words them.
public enum ZincError: Error, Equatable, Sendable {
    case catalogExists(String)
    /// `lookedIn`: the folders searched; `suggestion`: the nearest catalog to what was typed.
    case catalogNotFound(String, lookedIn: [String] = [], suggestion: String? = nil)
    case unsupportedFormat(path: String, format: String)
    case corruptFile(path: String, reason: String)
    case invalidName(kind: String, value: String, reason: String)
    case invalidPath(String, reason: String)
    case sourceProblem(path: String, reason: String)
    case emptySource(String)
    case bundleNotFound(String, suggestion: String? = nil)
    case versionNotFound(bundle: String, version: String)
    case distroNotFound(bundle: String, distro: String, suggestion: String? = nil)
    /// `suggestion`: how to write it, when the word is a distribution's name without its `@`.
    case invalidVersionSpec(String, suggestion: String? = nil)
    case io(path: String, operation: String, errno: Int32)
    case integrity(path: String, reason: String)
    /// A remote store (an S3 bucket) refused or failed a request; `reason` names the
    /// operation, the key and the store's own error code, never a credential.
    case remote(location: String, reason: String)
    /// An ignore pattern (`--exclude`, `.zincignore`) that cannot be used; `source` is
    /// where it came from (`.zincignore:3`, `--exclude`).
    case invalidPattern(source: String, pattern: String, reason: String)

    // Arguments a caller gave.
    /// An empty catalog location.
    case emptyCatalogLocation
    /// A `file://` URL with no path after it.
    case locationNamesNoFolder(String)
    /// A URL where only a local catalog can be used.
    case notALocalCatalog(String)
    /// A `scheme://` location no registered storage backend opens; `known` lists the
    /// schemes that are.
    case unknownStorageScheme(location: String, scheme: String, known: [String])
    /// A version of a bundle does not have the flavor asked for; `flavors` are the ones
    /// it has.
    case flavorNotFound(bundle: String, version: Int, flavor: String, flavors: [String])
    /// A flavorspec file that does not exist.
    case flavorspecFileNotFound(String)
    /// No flavorspec stored under `name` in the catalog at `catalog`.
    case flavorspecNotStored(name: String, catalog: String)
    /// `spec` is neither a flavorspec file nor the name of one stored in the catalog.
    case flavorspecNotFound(spec: String, catalog: String)
    /// A clone's destination is a symlink, which a clone never writes through.
    case cloneDestinationIsSymlink(String)
    /// A clone's destination already exists.
    case cloneDestinationExists(String)
    /// A file name too long for a tar header of an archive.
    case tarMemberNameTooLong(String)
    /// A negative size for a member of an archive.
    case negativeTarMemberSize(name: String, size: Int64)
    /// `prune --keep-last` with a count below 1.
    case pruneKeepsNoVersion(keepLast: Int)

    // Another writer, or a damaged state, got in the way; nothing was committed.
    /// The catalog stayed locked by `holders` for longer than the writer was willing to
    /// wait.
    case catalogLocked(location: String, holders: [LockHolder], waited: Duration)
    /// This writer's lock went unrefreshed for `stalledFor`, so another writer may have
    /// taken it over.
    case lockNotRefreshed(lock: String, stalledFor: Duration)
    /// This writer's lock was removed by another writer.
    case lockRemoved(lock: String)
    /// A file named after a version number (a manifest, an archive, an LMFO record)
    /// already exists: another writer used that number.
    case versionFileExists(String)
    /// An object disappeared while it was being stored.
    case objectVanished(sha: String)
    /// An index about to be written lists a version of a bundle twice.
    case duplicateIndexVersion(bundle: String, version: Int)
    /// An index about to be written has a bundle's `next_version` at or below a version
    /// it lists.
    case nextVersionBelowListed(bundle: String, version: Int)
    /// The index was changed by other writers on every one of `attempts` tries.
    case indexKeptChanging(location: String, attempts: Int)
    /// The index changed while its copies (`index.json`, `catalog.json`, gzipped) were
    /// written.
    case indexCopiesKeptChanging(location: String)
    /// The index changed on every try to sign it.
    case indexChangedWhileSigning(location: String)
    /// The index changed while a version was committed.
    case indexChangedDuringCommit(location: String, bundle: String, version: Int)
    /// The version number reserved by this import was listed by another writer.
    case reservedVersionTaken(location: String, bundle: String, version: Int)
    /// A bundle has used every version number up to ``CatalogIndex/maximumVersion``.
    case versionNumbersExhausted(bundle: String)
    /// Versions to delete that distributions still point at: version → distributions.
    case versionsReferenced(bundle: String, distributions: [Int: [String]])
    /// A source file of `publish` disappeared before it was copied.
    case publishSourceVanished(String)
    /// A destination file of `publish` appeared meanwhile with other content.
    case publishDestinationChanged(String)
    /// An immutable destination file of `publish` differs in size from its source.
    case publishDestinationDiffers(destination: String, source: String, size: Int64, expected: Int64)
    /// The destination of `publish` holds another catalog.
    case publishDestinationIsOtherCatalog(destination: String, id: String, expected: String)
    /// The destination of `publish` lists versions the source never had: bundle →
    /// versions.
    case publishDestinationHasForeignVersions(destination: String, source: String, versions: [String: [Int]])

    /// A writer holding a lock on a catalog, as ``catalogLocked(location:holders:waited:)``
    /// names it.
    public struct LockHolder: Equatable, Sendable {
        public var exclusive: Bool
        public var pid: Int
        public var host: String

        public init(exclusive: Bool, pid: Int, host: String) {
            self.exclusive = exclusive
            self.pid = pid
            self.host = host
        }
    }
    /// A signing key or public key file that cannot be used (or written).
    case keyFile(path: String, reason: String)
    /// A catalog signature that is malformed, made by no trusted key, or covering other
    /// bytes than the file it signs; `path` is the signature file or the file signed.
    case signature(path: String, reason: String)
    /// A change to the index of the signed catalog at this location without a signer:
    /// clients that trust its key would refuse the unsigned index.
    case signedCatalogNeedsSigner(String)
}

extension ZincError: CustomStringConvertible {
    public var description: String {
        switch self {
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
    public var description: String { "\(exclusive ? "an exclusive" : "a shared") lock of pid \(pid) on \(host)" }
}
