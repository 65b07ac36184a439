extension ZincError {
    /// What kind of failure, as an app or a pipeline acts on it: stable snake_case
    /// strings, several failures sharing one where the remedy is the same. New codes may
    /// come in later versions, so a `switch` over them keeps a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// A catalog already exists where one was to be created: open it, or create the
        /// new one elsewhere.
        public static let catalogExists = Code(rawValue: "catalog_exists")
        /// No catalog at the location given (``ZincError/path``): check the location, or
        /// create the catalog first.
        public static let catalogNotFound = Code(rawValue: "catalog_not_found")
        /// A catalog location that cannot be used here: empty, naming no folder, remote
        /// where only a local catalog is supported, or of a scheme no registered storage
        /// opens. Fix the location (or register its storage); retrying will not help.
        public static let invalidLocation = Code(rawValue: "invalid_location")
        /// A catalog file in a format this version of Zinc does not read: update Zinc.
        public static let unsupportedFormat = Code(rawValue: "unsupported_format")
        /// A file (``ZincError/path``) that is not valid Zinc: a damaged or hostile
        /// catalog, flavorspec or record. Run `zinc verify`; restore or republish the
        /// catalog; report it to whoever publishes it.
        public static let corruptFile = Code(rawValue: "corrupt_file")
        /// Stored bytes are not what the catalog records (a missing object, a wrong
        /// hash): the catalog at ``ZincError/path`` is damaged. Run `zinc verify`, and
        /// restore what it names from a copy, or import the bundle again.
        public static let integrity = Code(rawValue: "integrity")
        /// A system call failed on ``ZincError/path``; ``ZincError/errno`` says why:
        /// free space on `ENOSPC`, fix permissions on `EACCES`, retry on `EINTR` or `EAGAIN`.
        public static let io = Code(rawValue: "io")
        /// A remote store (an S3 bucket) refused or failed a request: retry later; if it
        /// persists, check the credentials, the bucket and the endpoint.
        public static let remote = Code(rawValue: "remote")
        /// A bundle, distribution or flavor name (or another name a catalog uses) that is
        /// not allowed: choose another.
        public static let invalidName = Code(rawValue: "invalid_name")
        /// A relative path inside a bundle that is not allowed (absolute, empty, with a
        /// `..` component), or that another file of the bundle already takes.
        public static let invalidPath = Code(rawValue: "invalid_path")
        /// A source folder that cannot be imported as it is: empty, or holding a file
        /// (``ZincError/path``) that cannot be (a dangling link, a name that is not
        /// UTF-8, a file that changed while it was read), or an ignore pattern that cannot
        /// be used. Fix the source and import again.
        public static let invalidSource = Code(rawValue: "invalid_source")
        /// The catalog has no bundle of that name (the message suggests the nearest).
        public static let bundleNotFound = Code(rawValue: "bundle_not_found")
        /// The bundle has no such version: it may have been pruned or deleted.
        public static let versionNotFound = Code(rawValue: "version_not_found")
        /// The bundle has no distribution of that name.
        public static let distroNotFound = Code(rawValue: "distro_not_found")
        /// The version of the bundle has no flavor of that name.
        public static let flavorNotFound = Code(rawValue: "flavor_not_found")
        /// No flavorspec file at the path given, and none of that name stored in the
        /// catalog.
        public static let flavorspecNotFound = Code(rawValue: "flavorspec_not_found")
        /// A version written neither as a number, `latest` nor `@DISTRO`: a value a user
        /// typed, to ask again (the message suggests what was meant).
        public static let invalidVersionSpec = Code(rawValue: "invalid_version_spec")
        /// Another argument the caller gave cannot be used (a count of versions to keep
        /// below 1, a tar member name over 100 bytes): a programming error, fix the call.
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// The folder or file to write into (``ZincError/path``) already exists, or is a
        /// symlink: remove it or choose another.
        public static let destinationExists = Code(rawValue: "destination_exists")
        /// Other writers held the catalog's lock for longer than this one would wait:
        /// retry later, or wait longer (`LockPolicy.waitAtMost`).
        public static let catalogLocked = Code(rawValue: "catalog_locked")
        /// Another writer changed the catalog (or took over this writer's lock, or
        /// removed what it was copying) while this one worked; nothing was committed.
        /// Run the operation again.
        public static let concurrentChange = Code(rawValue: "concurrent_change")
        /// A writer refused to write an index that would contradict itself (a version
        /// listed twice, a next version number at or below a listed one); nothing was
        /// written. Run `zinc verify` on the catalog, and report it.
        public static let inconsistentIndex = Code(rawValue: "inconsistent_index")
        /// A bundle has used every version number: import into a new bundle.
        public static let versionNumbersExhausted = Code(rawValue: "version_numbers_exhausted")
        /// Versions to delete are still what distributions point at: point them at
        /// other versions (or delete them) first.
        public static let versionsReferenced = Code(rawValue: "versions_referenced")
        /// The destination of a publish holds another catalog, or files another writer
        /// put there; nothing was replaced. Check that the destination is the right one,
        /// and that only one catalog publishes there.
        public static let foreignDestination = Code(rawValue: "foreign_destination")
        /// A signing key or public key file (``ZincError/path``) that cannot be read,
        /// parsed or written: check the file given.
        public static let keyFile = Code(rawValue: "key_file")
        /// A catalog signature that is malformed, made by no trusted key, or covering
        /// other bytes: do not use what it signs; report it, as tampering or a broken
        /// mirror.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// The catalog is signed, and this change would leave its index unsigned: open it
        /// with a `signer`, or with `allowsUnsignedChanges` to change it anyway.
        public static let signerRequired = Code(rawValue: "signer_required")
        /// A rollout forbids the change: a distribution with a live rollout moved without
        /// `force`, or a rollout change its state does not allow (the message says which).
        public static let rolloutConflict = Code(rawValue: "rollout_conflict")
    }

    /// What kind of failure this is, for an app to branch on.
    public var code: Code {
        switch kind {
        case .catalogExists: .catalogExists
        case .catalogNotFound: .catalogNotFound
        case .emptyCatalogLocation, .locationNamesNoFolder, .notALocalCatalog, .unknownStorageScheme: .invalidLocation
        case .unsupportedFormat: .unsupportedFormat
        case .corruptFile: .corruptFile
        case .integrity: .integrity
        case .io: .io
        case .remote: .remote
        case .invalidName: .invalidName
        case .invalidPath: .invalidPath
        case .sourceProblem, .emptySource, .invalidPattern: .invalidSource
        case .bundleNotFound: .bundleNotFound
        case .versionNotFound: .versionNotFound
        case .distroNotFound: .distroNotFound
        case .flavorNotFound: .flavorNotFound
        case .flavorspecFileNotFound, .flavorspecNotStored, .flavorspecNotFound: .flavorspecNotFound
        case .invalidVersionSpec: .invalidVersionSpec
        case .tarMemberNameTooLong, .negativeTarMemberSize, .pruneKeepsNoVersion: .invalidArgument
        case .cloneDestinationIsSymlink, .cloneDestinationExists: .destinationExists
        case .catalogLocked: .catalogLocked
        case .lockNotRefreshed, .lockRemoved, .versionFileExists, .objectVanished, .indexKeptChanging, .indexCopiesKeptChanging,
            .indexChangedWhileSigning, .indexChangedDuringCommit, .reservedVersionTaken, .publishSourceVanished:
            .concurrentChange
        case .duplicateIndexVersion, .nextVersionBelowListed: .inconsistentIndex
        case .versionNumbersExhausted: .versionNumbersExhausted
        case .versionsReferenced: .versionsReferenced
        case .publishDestinationChanged, .publishDestinationDiffers, .publishDestinationIsOtherCatalog,
            .publishDestinationHasForeignVersions:
            .foreignDestination
        case .keyFile: .keyFile
        case .signature: .invalidSignature
        case .signedCatalogNeedsSigner: .signerRequired
        case .rolloutConflict: .rolloutConflict
        }
    }
}
