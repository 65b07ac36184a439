#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every failure Zinc reports to a user. Each names the offending file or value, so a
/// build pipeline log says what to fix without a debugger. A program embedding the
/// library branches on ``code``, a stable string that can gain values without breaking
/// its `switch` (as long as it has a `default`), and reads ``path`` and ``errno`` where it
/// needs them; see <doc:HandlingErrors> for what to do for each code.
///
/// This file is the whole vocabulary: each code's constant sits with the factories that
/// make its failures, and each factory words its message, so adding a failure is adding a
/// factory here (and, for a new code, its constant).
public struct ZincError: Error, Equatable, Sendable {
    /// What kind of failure this is, for an app to branch on.
    public let code: Code

    /// The words ``description`` gives, built once by the factory that made the error.
    package let message: String

    /// The file, folder or catalog location at fault, where the failure names one: the
    /// file that is damaged or cannot be read, the location of a catalog that is missing
    /// or locked, the destination that is taken. Nil when what is at fault is a value
    /// (a name, a version, an argument).
    public let path: String?

    /// The system's error number of an ``Code/io`` failure (`ENOSPC`, `EACCES`, …); nil
    /// for every other code.
    public let errno: Int32?

    /// What is wrong, in words fit to follow `'<file>': `: the reason of a corrupt file,
    /// an integrity or signature failure, a remote refusal, an invalid path, or the
    /// refusal of a name (with its value escaped), for the targets of this package that
    /// reword a failure for the file that held it. Nil where the message is all there is.
    package let reason: String?

    /// The file of the source catalog a publish destination's file differs from: set by
    /// ``publishDestinationDiffers(destination:source:size:expected:)`` only, which the
    /// CLI explains with the way forward.
    package let differingSource: String?

    package init(
        _ code: Code, _ message: String, path: String? = nil, errno: Int32? = nil, reason: String? = nil,
        differingSource: String? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.errno = errno
        self.reason = reason
        self.differingSource = differingSource
    }

    /// What kind of failure, as an app or a pipeline acts on it: stable snake_case
    /// strings, several failures sharing one where the remedy is the same. New codes may
    /// come in later versions, so a `switch` over them keeps a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }
    }

    /// A writer holding a lock on a catalog, as ``catalogLocked(location:holders:waited:)``
    /// names it.
    package struct LockHolder: Equatable, Sendable, CustomStringConvertible {
        package var exclusive: Bool
        package var pid: Int
        package var host: String

        package init(exclusive: Bool, pid: Int, host: String) {
            self.exclusive = exclusive
            self.pid = pid
            self.host = host
        }

        package var description: String { "\(exclusive ? "an exclusive" : "a shared") lock of pid \(pid) on \(host)" }
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}

extension ZincError: CustomStringConvertible {
    public var description: String { message }
}

// Each code, then the factories that make its failures, spelled as when ZincError was an
// enum: `throw ZincError.corruptFile(path:reason:)` and comparisons with `==` read as
// before. The factories are package: the modules of this package make the errors; an app
// reads an error's `code`, `path`, `errno`.

extension ZincError.Code {
    /// A catalog already exists where one was to be created: open it, or create the
    /// new one elsewhere.
    public static let catalogExists = Self(rawValue: "catalog_exists")
}

extension ZincError {
    package static func catalogExists(_ path: String) -> ZincError {
        ZincError(.catalogExists, "a catalog already exists at '\(path)'", path: path)
    }
}

extension ZincError.Code {
    /// No catalog at the location given (``ZincError/path``): check the location, or
    /// create the catalog first.
    public static let catalogNotFound = Self(rawValue: "catalog_not_found")
}

extension ZincError {
    /// `lookedIn`: the folders searched; `suggestion`: the nearest catalog to what was typed.
    package static func catalogNotFound(_ location: String, lookedIn: [String] = [], suggestion: String? = nil) -> ZincError {
        let searched = lookedIn.isEmpty ? "" : " (no catalog.json in " + lookedIn.joined(separator: " or ") + ")"
        return ZincError(.catalogNotFound, "no catalog at '\(location)'" + searched + didYouMean(suggestion), path: location)
    }
}

extension ZincError.Code {
    /// A catalog location that cannot be used here: empty, naming no folder, remote
    /// where only a local catalog is supported, or of a scheme no registered storage
    /// opens. Fix the location (or register its storage); retrying will not help.
    public static let invalidLocation = Self(rawValue: "invalid_location")
}

extension ZincError {
    /// An empty catalog location.
    package static let emptyCatalogLocation = ZincError(.invalidLocation, "the catalog location is empty")

    /// A `file://` URL with no path after it.
    package static func locationNamesNoFolder(_ location: String) -> ZincError {
        ZincError(.invalidLocation, "'\(location)' names no folder", path: location)
    }

    /// A URL where only a local catalog can be used.
    package static func notALocalCatalog(_ location: String) -> ZincError {
        ZincError(
            .invalidLocation, "'\(location)': only local catalogs (a path or file:// URL) are supported here", path: location)
    }

    /// A `scheme://` location no registered storage backend opens; `known` lists the
    /// schemes that are.
    package static func unknownStorageScheme(location: String, scheme: String, known: [String]) -> ZincError {
        let schemes = known.map { "\($0)://" }.joined(separator: ", ")
        return ZincError(
            .invalidLocation, "'\(location)': no storage backend for \(scheme):// (known: \(schemes), or a plain path)",
            path: location)
    }
}

extension ZincError.Code {
    /// A catalog file in a format this version of Zinc does not read: update Zinc.
    public static let unsupportedFormat = Self(rawValue: "unsupported_format")
}

extension ZincError {
    package static func unsupportedFormat(path: String, format: String) -> ZincError {
        ZincError(
            .unsupportedFormat, "'\(path)' is in catalog format '\(format)'; this zinc reads and writes format '1' only",
            path: path)
    }
}

extension ZincError.Code {
    /// A file (``ZincError/path``) that is not valid Zinc: a damaged or hostile
    /// catalog, flavorspec or record. Run `zinc verify`; restore or republish the
    /// catalog; report it to whoever publishes it.
    public static let corruptFile = Self(rawValue: "corrupt_file")
}

extension ZincError {
    package static func corruptFile(path: String, reason: String) -> ZincError {
        ZincError(.corruptFile, "'\(path)' is not a valid Zinc file: \(reason)", path: path, reason: reason)
    }
}

extension ZincError.Code {
    /// Stored bytes are not what the catalog records (a missing object, a wrong
    /// hash): the catalog at ``ZincError/path`` is damaged. Run `zinc verify`, and
    /// restore what it names from a copy, or import the bundle again.
    public static let integrity = Self(rawValue: "integrity")
}

extension ZincError {
    package static func integrity(path: String, reason: String) -> ZincError {
        ZincError(.integrity, "'\(path)' is damaged: \(reason)", path: path, reason: reason)
    }
}

extension ZincError.Code {
    /// A system call failed on ``ZincError/path``; ``ZincError/errno`` says why:
    /// free space on `ENOSPC`, fix permissions on `EACCES`, retry on `EINTR` or `EAGAIN`.
    public static let io = Self(rawValue: "io")
}

extension ZincError {
    package static func io(path: String, operation: String, errno: Int32) -> ZincError {
        ZincError(.io, "cannot \(operation) '\(path)': \(String(cString: strerror(errno)))", path: path, errno: errno)
    }
}

extension ZincError.Code {
    /// A remote store (an S3 bucket) refused or failed a request: retry later; if it
    /// persists, check the credentials, the bucket and the endpoint.
    public static let remote = Self(rawValue: "remote")
}

extension ZincError {
    /// A remote store (an S3 bucket) refused or failed a request; `reason` names the
    /// operation, the key and the store's own error code, never a credential.
    package static func remote(location: String, reason: String) -> ZincError {
        ZincError(.remote, "\(location): \(reason)", path: location, reason: reason)
    }
}

extension ZincError.Code {
    /// A bundle, distribution or flavor name (or another name a catalog uses) that is
    /// not allowed: choose another.
    public static let invalidName = Self(rawValue: "invalid_name")
}

extension ZincError {
    package static func invalidName(kind: String, value: String, reason: String) -> ZincError {
        ZincError(
            .invalidName, "invalid \(kind) '\(value)': \(reason)",
            reason: "invalid \(kind) '\(Names.printable(value))': \(reason)")
    }
}

extension ZincError.Code {
    /// A relative path inside a bundle that is not allowed (absolute, empty, with a
    /// `..` component), or that another file of the bundle already takes.
    public static let invalidPath = Self(rawValue: "invalid_path")
}

extension ZincError {
    package static func invalidPath(_ path: String, reason: String) -> ZincError {
        ZincError(.invalidPath, "invalid path '\(path)': \(reason)", path: path, reason: reason)
    }
}

extension ZincError.Code {
    /// A source folder that cannot be imported as it is: empty, or holding a file
    /// (``ZincError/path``) that cannot be (a dangling link, a name that is not
    /// UTF-8, a file that changed while it was read), or an ignore pattern that cannot
    /// be used. Fix the source and import again.
    public static let invalidSource = Self(rawValue: "invalid_source")
}

extension ZincError {
    package static func sourceProblem(path: String, reason: String) -> ZincError {
        ZincError(.invalidSource, "'\(path)': \(reason)", path: path, reason: reason)
    }

    package static func emptySource(_ path: String) -> ZincError {
        ZincError(.invalidSource, "source folder '\(path)' holds no files", path: path)
    }

    /// An ignore pattern (`--exclude`, `.zincignore`) that cannot be used; `source` is
    /// where it came from (`.zincignore:3`, `--exclude`).
    package static func invalidPattern(source: String, pattern: String, reason: String) -> ZincError {
        ZincError(.invalidSource, "\(source): '\(pattern)' \(reason)")
    }
}

extension ZincError.Code {
    /// The catalog has no bundle of that name (the message suggests the nearest).
    public static let bundleNotFound = Self(rawValue: "bundle_not_found")
}

extension ZincError {
    package static func bundleNotFound(_ bundle: String, suggestion: String? = nil) -> ZincError {
        ZincError(.bundleNotFound, "no bundle '\(bundle)' in the catalog" + didYouMean(suggestion))
    }
}

extension ZincError.Code {
    /// The bundle has no such version: it may have been pruned or deleted.
    public static let versionNotFound = Self(rawValue: "version_not_found")
}

extension ZincError {
    package static func versionNotFound(bundle: String, version: String) -> ZincError {
        ZincError(.versionNotFound, "bundle '\(bundle)' has no version \(version)")
    }
}

extension ZincError.Code {
    /// The bundle has no distribution of that name.
    public static let distroNotFound = Self(rawValue: "distro_not_found")
}

extension ZincError {
    package static func distroNotFound(bundle: String, distro: String, suggestion: String? = nil) -> ZincError {
        ZincError(.distroNotFound, "bundle '\(bundle)' has no distribution '\(distro)'" + didYouMean(suggestion))
    }
}

extension ZincError.Code {
    /// The version of the bundle has no flavor of that name.
    public static let flavorNotFound = Self(rawValue: "flavor_not_found")
}

extension ZincError {
    /// A version of a bundle does not have the flavor asked for; `flavors` are the ones
    /// it has.
    package static func flavorNotFound(bundle: String, version: Int, flavor: String, flavors: [String]) -> ZincError {
        let known = flavors.isEmpty ? "it has no flavors" : "its flavors: " + flavors.joined(separator: ", ")
        return ZincError(.flavorNotFound, "bundle '\(bundle)' version \(version) has no flavor '\(flavor)' (\(known))")
    }
}

extension ZincError.Code {
    /// No flavorspec file at the path given, and none of that name stored in the
    /// catalog.
    public static let flavorspecNotFound = Self(rawValue: "flavorspec_not_found")
}

extension ZincError {
    /// A flavorspec file that does not exist.
    package static func flavorspecFileNotFound(_ path: String) -> ZincError {
        ZincError(.flavorspecNotFound, "no flavorspec file at '\(path)'", path: path)
    }

    /// No flavorspec stored under `name` in the catalog at `catalog`.
    package static func flavorspecNotStored(name: String, catalog: String) -> ZincError {
        ZincError(.flavorspecNotFound, "no flavorspec named '\(name)' stored in catalog '\(catalog)'", path: catalog)
    }

    /// `spec` is neither a flavorspec file nor the name of one stored in the catalog.
    package static func flavorspecNotFound(spec: String, catalog: String) -> ZincError {
        ZincError(
            .flavorspecNotFound, "no flavorspec file '\(spec)' and no flavorspec named '\(spec)' stored in catalog '\(catalog)'",
            path: catalog)
    }
}

extension ZincError.Code {
    /// A version written neither as a number, `latest` nor `@DISTRO`: a value a user
    /// typed, to ask again (the message suggests what was meant).
    public static let invalidVersionSpec = Self(rawValue: "invalid_version_spec")
}

extension ZincError {
    /// `suggestion`: how to write it, when the word is a distribution's name without its `@`.
    package static func invalidVersionSpec(_ spec: String, suggestion: String? = nil) -> ZincError {
        ZincError(
            .invalidVersionSpec, "invalid version '\(spec)': expected a number, 'latest' or '@DISTRO'" + didYouMean(suggestion))
    }
}

extension ZincError.Code {
    /// Another argument the caller gave cannot be used (a count of versions to keep
    /// below 1, a tar member name over 100 bytes): a programming error, fix the call.
    public static let invalidArgument = Self(rawValue: "invalid_argument")
}

extension ZincError {
    /// A file name too long for a tar header of an archive.
    package static func tarMemberNameTooLong(_ name: String) -> ZincError {
        ZincError(.invalidArgument, "tar member name '\(name)' is longer than 100 bytes")
    }

    /// A negative size for a member of an archive.
    package static func negativeTarMemberSize(name: String, size: Int64) -> ZincError {
        ZincError(.invalidArgument, "negative tar member size")
    }

    /// `prune --keep-last` with a count below 1.
    package static func pruneKeepsNoVersion(keepLast: Int) -> ZincError {
        ZincError(.invalidArgument, "keeping the last \(keepLast) versions would delete every version; keep at least 1")
    }
}

extension ZincError.Code {
    /// The folder or file to write into (``ZincError/path``) already exists, or is a
    /// symlink: remove it or choose another.
    public static let destinationExists = Self(rawValue: "destination_exists")
}

extension ZincError {
    /// A clone's destination is a symlink, which a clone never writes through.
    package static func cloneDestinationIsSymlink(_ path: String) -> ZincError {
        ZincError(.destinationExists, "'\(path)' is a symlink; a clone never writes through one", path: path)
    }

    /// A clone's destination already exists.
    package static func cloneDestinationExists(_ path: String) -> ZincError {
        ZincError(.destinationExists, "'\(path)' already exists; remove it or clone into another folder", path: path)
    }
}

extension ZincError.Code {
    /// Other writers held the catalog's lock for longer than this one would wait:
    /// retry later, or wait longer (`LockPolicy.waitAtMost`).
    public static let catalogLocked = Self(rawValue: "catalog_locked")
}

extension ZincError {
    /// The catalog stayed locked by `holders` for longer than the writer was willing to
    /// wait.
    package static func catalogLocked(location: String, holders: [LockHolder], waited: Duration) -> ZincError {
        ZincError(
            .catalogLocked,
            "'\(location)' is locked (\(holders.map(\.description).joined(separator: ", "))); gave up after waiting \(waited)",
            path: location)
    }
}

extension ZincError.Code {
    /// Another writer changed the catalog (or took over this writer's lock, or
    /// removed what it was copying) while this one worked; nothing was committed.
    /// Run the operation again.
    public static let concurrentChange = Self(rawValue: "concurrent_change")
}

extension ZincError {
    /// This writer's lock went unrefreshed for `stalledFor`, so another writer may have
    /// taken it over.
    package static func lockNotRefreshed(lock: String, stalledFor: Duration) -> ZincError {
        ZincError(
            .concurrentChange,
            "the lock '\(lock)' was not refreshed for \(stalledFor) (this process stalled, or the storage failed); "
                + "another writer may have taken it as stale, so nothing was committed",
            path: lock)
    }

    /// This writer's lock was removed by another writer.
    package static func lockRemoved(lock: String) -> ZincError {
        ZincError(.concurrentChange, "the lock '\(lock)' was removed by another writer; nothing was committed", path: lock)
    }

    /// A file named after a version number (a manifest, an archive, an LMFO record)
    /// already exists: another writer used that number.
    package static func versionFileExists(_ path: String) -> ZincError {
        ZincError(.concurrentChange, "'\(path)' already exists; another writer used this version number", path: path)
    }

    /// An object disappeared while it was being stored.
    package static func objectVanished(sha: String) -> ZincError {
        ZincError(.concurrentChange, "object \(sha) vanished while it was being stored")
    }

    /// The index was changed by other writers on every one of `attempts` tries.
    package static func indexKeptChanging(location: String, attempts: Int) -> ZincError {
        ZincError(
            .concurrentChange, "the index of '\(location)' kept changing under this writer (\(attempts) attempts); try again",
            path: location)
    }

    /// The index changed while its copies (`index.json`, `catalog.json`, gzipped) were
    /// written.
    package static func indexCopiesKeptChanging(location: String) -> ZincError {
        ZincError(
            .concurrentChange, "the index of '\(location)' kept changing while its copies were written; try again",
            path: location)
    }

    /// The index changed on every try to sign it.
    package static func indexChangedWhileSigning(location: String) -> ZincError {
        ZincError(.concurrentChange, "the index of '\(location)' kept changing while it was signed; try again", path: location)
    }

    /// The index changed while a version was committed.
    package static func indexChangedDuringCommit(location: String, bundle: String, version: Int) -> ZincError {
        ZincError(
            .concurrentChange,
            "the index of '\(location)' kept changing while version \(version) of '\(bundle)' was committed; try again",
            path: location)
    }

    /// The version number reserved by this import was listed by another writer.
    package static func reservedVersionTaken(location: String, bundle: String, version: Int) -> ZincError {
        ZincError(
            .concurrentChange,
            "version \(version) of '\(bundle)', reserved by this import, is already listed in the index of "
                + "'\(location)' by another writer; nothing was committed",
            path: location)
    }

    /// A source file of `publish` disappeared before it was copied.
    package static func publishSourceVanished(_ path: String) -> ZincError {
        ZincError(.concurrentChange, "'\(path)' vanished while publishing; run publish again", path: path)
    }
}

extension ZincError.Code {
    /// A writer refused to write an index that would contradict itself (a version
    /// listed twice, a next version number at or below a listed one); nothing was
    /// written. Run `zinc verify` on the catalog, and report it.
    public static let inconsistentIndex = Self(rawValue: "inconsistent_index")
}

extension ZincError {
    /// An index about to be written lists a version of a bundle twice.
    package static func duplicateIndexVersion(bundle: String, version: Int) -> ZincError {
        ZincError(.inconsistentIndex, "refusing to write an index that lists version \(version) of '\(bundle)' twice")
    }

    /// An index about to be written has a bundle's `next_version` at or below a version
    /// it lists.
    package static func nextVersionBelowListed(bundle: String, version: Int) -> ZincError {
        ZincError(
            .inconsistentIndex, "refusing to write an index whose next_version of '\(bundle)' is below version \(version)")
    }
}

extension ZincError.Code {
    /// A bundle has used every version number: import into a new bundle.
    public static let versionNumbersExhausted = Self(rawValue: "version_numbers_exhausted")
}

extension ZincError {
    /// A bundle has used every version number up to ``CatalogIndex/maximumVersion``.
    package static func versionNumbersExhausted(bundle: String) -> ZincError {
        ZincError(
            .versionNumbersExhausted, "bundle '\(bundle)' has used every version number up to \(CatalogIndex.maximumVersion)")
    }
}

extension ZincError.Code {
    /// Versions to delete are still what distributions point at: point them at
    /// other versions (or delete them) first.
    public static let versionsReferenced = Self(rawValue: "versions_referenced")
}

extension ZincError {
    /// Versions to delete that distributions still point at: version → distributions.
    package static func versionsReferenced(bundle: String, distributions: [Int: [String]]) -> ZincError {
        let refusals = distributions.sorted { $0.key < $1.key }.map { version, distros in
            "version \(version) of '\(bundle)' is referenced by distribution\(distros.count == 1 ? "" : "s") "
                + distros.map { "'\($0)'" }.joined(separator: ", ")
        }
        return ZincError(.versionsReferenced, refusals.joined(separator: "; ") + "; nothing was deleted")
    }
}

extension ZincError.Code {
    /// The destination of a publish holds another catalog, or files another writer
    /// put there; nothing was replaced. Check that the destination is the right one,
    /// and that only one catalog publishes there.
    public static let foreignDestination = Self(rawValue: "foreign_destination")
}

extension ZincError {
    /// A destination file of `publish` appeared meanwhile with other content.
    package static func publishDestinationChanged(_ path: String) -> ZincError {
        ZincError(.foreignDestination, "'\(path)' appeared meanwhile with other content", path: path)
    }

    /// An immutable destination file of `publish` differs in size from its source.
    package static func publishDestinationDiffers(destination: String, source: String, size: Int64, expected: Int64) -> ZincError {
        ZincError(
            .foreignDestination,
            "'\(destination)' differs from '\(source)' (\(size) bytes, not \(expected)): another writer or another "
                + "catalog wrote the destination; nothing was published",
            path: destination, differingSource: source)
    }

    /// The destination of `publish` holds another catalog.
    package static func publishDestinationIsOtherCatalog(destination: String, id: String, expected: String) -> ZincError {
        ZincError(
            .foreignDestination, "'\(destination)' is the catalog '\(id)', not '\(expected)'; nothing was published",
            path: destination)
    }

    /// The destination of `publish` lists versions the source never had: bundle →
    /// versions.
    package static func publishDestinationHasForeignVersions(
        destination: String, source: String, versions: [String: [Int]]
    ) -> ZincError {
        let foreign = versions.sorted { $0.key < $1.key }.flatMap { name, numbers in numbers.map { "\(name) v\($0)" } }
        return ZincError(
            .foreignDestination,
            "'\(destination)' lists versions '\(source)' never had (\(foreign.prefix(5).joined(separator: ", "))"
                + "\(foreign.count > 5 ? ", …" : "")): another writer published there; nothing was replaced",
            path: destination)
    }
}

extension ZincError.Code {
    /// A signing key or public key file (``ZincError/path``) that cannot be read,
    /// parsed or written: check the file given.
    public static let keyFile = Self(rawValue: "key_file")
}

extension ZincError {
    /// A signing key or public key file that cannot be used (or written).
    package static func keyFile(path: String, reason: String) -> ZincError {
        ZincError(.keyFile, "key file '\(path)': \(reason)", path: path, reason: reason)
    }
}

extension ZincError.Code {
    /// A catalog signature that is malformed, made by no trusted key, or covering
    /// other bytes: do not use what it signs; report it, as tampering or a broken
    /// mirror.
    public static let invalidSignature = Self(rawValue: "invalid_signature")
}

extension ZincError {
    /// A catalog signature that is malformed, made by no trusted key, or covering other
    /// bytes than the file it signs; `path` is the signature file or the file signed.
    package static func signature(path: String, reason: String) -> ZincError {
        ZincError(.invalidSignature, "'\(path)': signature check failed: \(reason)", path: path, reason: reason)
    }
}

extension ZincError.Code {
    /// The catalog is signed, and this change would leave its index unsigned: open it
    /// with a `signer`, or with `allowsUnsignedChanges` to change it anyway.
    public static let signerRequired = Self(rawValue: "signer_required")
}

extension ZincError {
    /// A change to the index of the signed catalog at this location without a signer:
    /// clients that trust its key would refuse the unsigned index.
    package static func signedCatalogNeedsSigner(_ location: String) -> ZincError {
        ZincError(
            .signerRequired,
            "the catalog at '\(location)' is signed: this change would leave its index unsigned, "
                + "and clients that trust its key would refuse it until it is signed again",
            path: location)
    }
}

extension ZincError.Code {
    /// A rollout forbids the change: a distribution with a live rollout moved without
    /// `force`, or a rollout change its state does not allow (the message says which).
    public static let rolloutConflict = Self(rawValue: "rollout_conflict")
}

extension ZincError {
    /// A change a rollout of `bundle`'s `distro` forbids, or that its state does not allow.
    package static func rolloutConflict(bundle: String, distro: String, reason: String) -> ZincError {
        ZincError(.rolloutConflict, "rollout of distribution '\(distro)' of '\(bundle)': \(reason)")
    }
}
