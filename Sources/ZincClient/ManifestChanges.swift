import Zinc

/// One file of a version, made from its row of a `CompactManifest` when it is needed:
/// for the files an update changes, never for every file.
struct ManifestRow: Sendable, Equatable {
    /// The file's index among the version's files in path order (every flavor's): its
    /// row in the table, and its line in the version's digest list.
    let ordinal: UInt32
    let path: String
    let object: StoredObject
}

/// What turns one version's files (of a flavor) into another's: the files to place
/// (changed or added) and the paths to remove (changed or removed), both in path order.
/// An update touches these and nothing else.
struct ManifestChanges: Sendable, Equatable {
    let place: [ManifestRow]
    let remove: [String]
    /// The objects of the earlier version's files that the later one does not hold as
    /// they are: of an earlier version that leaves the repo, the only ones that may lose
    /// their last user.
    let leaving: [SHA1.Digest]
}
