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

extension ManifestChanges {
    /// What turns an earlier version's files into a later one's, by one merge of the two
    /// in path order: `earlier` gives each of its files (its path's bytes and object) in
    /// that order, and `later` steps through the later version's. `place`: the later
    /// files the earlier version lacks or holds with another object (changed and added);
    /// `remove` and `leaving`: the earlier paths the later version lacks or holds with
    /// another object (changed and removed) and their objects. Strings are made for these
    /// alone.
    init(
        merging earlier: ((UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) throws -> Void, into later: inout any ManifestRowCursor
    ) throws {
        var place = [ManifestRow]()
        var remove = [String]()
        var leaving = [SHA1.Digest]()
        // A later row that cannot be read ends the merge's later side; thrown at its end.
        var failure: (any Error)?
        var more = false
        func next() {
            guard failure == nil else { return }
            do { more = try later.next() } catch {
                failure = error
                more = false
            }
        }
        next()
        try earlier { path, digest in
            // The later version's files before the earlier one's `path`: added.
            var order = 0
            while more {
                order = later.path.withUnsafeBufferPointer { CompactManifest.compare($0, path) }
                guard order < 0 else { break }
                place.append(later.row)
                next()
            }
            if more, order == 0 {
                defer { next() }
                guard later.object.digest != digest else { return }
                place.append(later.row)
            }
            remove.append(String(decoding: path, as: UTF8.self))
            leaving.append(digest)
        }
        while more {
            place.append(later.row)
            next()
        }
        if let failure { throw failure }
        self.init(place: place, remove: remove, leaving: leaving)
    }
}
