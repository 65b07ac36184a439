import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `bundles/<catalog id>.<bundle>-<v>[~flavor]/` from objects/: every file a
/// hard link to its object (a copy where the file system refuses links), assembled in
/// a private staging folder and renamed into place complete. The folder in use is not
/// touched, so an app keeps using it until the sync switches over.
///
/// With a spare (the folder of the version checked out before the one in use, which no
/// app is told to read any more), the spare is moved to the staging folder and only the
/// files that differ between its version and the new one are removed and linked: the
/// work follows the change, not the bundle, as an A/B update brings its spare slot up
/// to date before switching to it.
///
/// It goes in two steps, so that a sync places the files whose objects the repo has
/// (and makes their folders) while the missing objects download: `placeAvailable`, on
/// any thread, then `finish` once every object is there.
struct BundleCheckout: Sendable {
    let repo: Repo
    /// The version's folder, once finished.
    let folder: String
    let staging: StagingFolder
    /// The version's files, read a row at a time as they are placed (from its table file,
    /// never held whole): nil with a spare, whose files to place are made already (`placed`).
    private let table: VersionTable?
    /// The flavor whose files `table` gives.
    private let flavor: String?
    /// The files to place, with a spare: those that differ.
    private let placed: [ManifestRow]
    /// The spare's files that the new version does not have as they are, removed first.
    private let removals: [String]
    /// Files of the app's own (clones or copies, writable) rather than links to objects.
    private let writable: Bool

    /// A bundle's spare folder (an earlier version's, links and not writable files) and
    /// what turns it into a new version.
    struct Spare: Sendable {
        let folder: String
        /// The new version's files that the spare does not hold as they are (the only
        /// files placed), and the spare's files that it does not have as they are.
        let changes: ManifestChanges

        /// - Parameters: `changes`, what turns the spare's files into the version to build
        ///   (`CompactManifest.changes(from:flavor:)`).
        init(folder: String, validating changes: ManifestChanges) throws {
            // A manifest decides where files go and which are removed: its paths are checked again.
            for row in changes.place { try Names.validateRelativePath(row.path) }
            for path in changes.remove { try Names.validateRelativePath(path) }
            self.init(folder: folder, changes: changes)
        }

        private init(folder: String, changes: ManifestChanges) {
            self.folder = folder
            self.changes = changes
        }

        /// The same spare, also replacing the new version's files at `paths` (found damaged
        /// in the folder in use) and those whose object is one of `objects` (damaged, and
        /// shared by every link to it, the spare's included): each is removed and placed
        /// again, so the folder built follows the damage, not the bundle.
        func healing(paths: Set<String>, objects: Set<SHA1.Digest>, in new: VersionTable, flavor: String?) throws -> Spare {
            guard !paths.isEmpty || !objects.isEmpty else { return self }
            var placed = Set(changes.place.map(\.ordinal))
            var place = changes.place
            var remove = changes.remove
            var rows = try new.rows(flavor: flavor)
            while try rows.next() {
                let row = rows.row
                guard objects.contains(row.object.digest) || paths.contains(row.path), placed.insert(row.ordinal).inserted else { continue }
                place.append(row)
                remove.append(row.path)
            }
            // The spare's objects of the files replaced are the new version's: none leaves.
            return Spare(folder: folder, changes: ManifestChanges(place: place, remove: remove, leaving: changes.leaving))
        }
    }

    /// - Parameters: `header` and `files`, the version to build (its files, read only
    ///   without a spare); `spare`, the bundle's spare folder, to bring to that version: it
    ///   is moved, never copied.
    init(
        _ header: ManifestHeader, _ files: VersionTable, catalog: String, flavor: String?, writable: Bool = false, repo: Repo,
        spare: Spare? = nil
    ) throws {
        self.repo = repo
        self.writable = writable
        self.flavor = flavor
        // With a spare, the files to place are its changes: the table is not read.
        table = spare == nil ? files : nil
        folder = repo.bundlePath(catalog: catalog, bundle: header.bundle, version: header.version, flavor: flavor)
        staging = try StagingFolder(in: repo.bundlesFolder, for: String(folder.split(separator: "/").last!))
        guard chmod(staging.path, 0o755) == 0 else {
            staging.remove()
            throw ZincError.io(path: staging.path, operation: "chmod", errno: errno)
        }
        guard let spare else {
            placed = []
            removals = []
            return
        }
        // Over the empty staging folder, in one step: a kill leaves it for the collection.
        guard rename(spare.folder, staging.path) == 0 else {
            let code = errno
            staging.remove()
            throw ZincError.io(path: spare.folder, operation: "move the spare folder to \(staging.path)", errno: code)
        }
        FaultInjection.changed(staging.path)
        placed = spare.changes.place
        removals = spare.changes.remove
    }

    /// The files `placeAvailable` left for `finish`: every file before the first one it
    /// placed, counted, and those after it by their rows in the version's files (or their
    /// indices in `placed`), in order, 4 bytes each. A first sync places none before its
    /// objects arrive: a count, where a row a file took 4 MB at 1,000,000 files.
    struct FilesLeft: Sendable {
        fileprivate(set) var leading = 0
        fileprivate(set) var after = [UInt32]()
    }

    /// Makes every folder the files need and places every file whose object is in the
    /// repo now; returns the others, for `finish`. The folders are all made here, while the
    /// missing objects download, each with one `mkdir`: `finish` then only links.
    /// - Parameters:
    ///   - missing: the objects the plan found missing, sorted by digest (the plan's own
    ///     list, searched where it is rather than copied), and `assembled`, those built
    ///     from chunks, sorted: their files are left for `finish` without a look at
    ///     objects/, where a first sync at 100,000 files made 100,000 `access` calls,
    ///     four in five of them failing.
    func placeAvailable(missing: [StoredObject] = [], assembled: [SHA1.Digest] = []) throws -> FilesLeft {
        for path in removals { try remove(path) }
        if !removals.isEmpty { FaultInjection.changed(staging.path) }
        // The folder made last, by components: the next file's folder shares a front of it.
        var made = [Substring]()
        var left = FilesLeft()
        var placedOne = false
        try forEachFile { file, row in
            try createFolders(of: row.path, after: &made)
            let digest = row.object.digest
            let at = missing.partitionPoint { $0.digest < digest }
            let awaited = at < missing.count && missing[at].digest == digest
            let built = assembled.partitionPoint { $0 < digest }
            let waits = awaited || (built < assembled.count && assembled[built] == digest)
            if try waits || !place(row, objectMayBeMissing: true) {
                if placedOne { left.after.append(file) } else { left.leading += 1 }
            } else {
                placedOne = true
            }
        }
        return left
    }

    /// Gives `body` each file to place, by its row in the version's files (read from
    /// `table` a row at a time) or its index in `placed`, and the file.
    private func forEachFile(_ body: (UInt32, ManifestRow) throws -> Void) throws {
        guard let table else {
            for (i, row) in placed.enumerated() { try body(UInt32(i), row) }
            return
        }
        var rows = try table.rows(flavor: flavor)
        while try rows.next() { try body(rows.ordinal, rows.row) }
    }

    /// Makes the folders of the file at `path` that `made` (the folder made last, by
    /// components) does not hold, parents first. A version's files come in path order,
    /// where the files under a folder are side by side: each folder is then made once. In
    /// another order (a spare's changes) a folder may be tried again, and is taken as it
    /// is. The path is checked again before anything is made for it: a manifest decides
    /// where files go.
    private func createFolders(of path: String, after made: inout [Substring]) throws {
        try Names.validateRelativePath(path)
        let components = path.split(separator: "/").dropLast()
        var shared = 0
        while shared < min(made.count, components.count), made[shared] == components[shared] { shared += 1 }
        made.removeLast(made.count - shared)
        for component in components.dropFirst(shared) {
            let base = made.isEmpty ? staging.path : staging.path + "/" + made.joined(separator: "/")
            made.append(component)
            do {
                try StagingFolder.createFolders(CollectionOfOne(component), in: base)
            } catch let error as ZincError where error.errno == ENOTDIR {
                throw ZincError.invalidPath(made.joined(separator: "/"), reason: "another file of the bundle already takes its place")
            }
        }
    }

    /// The objects this checkout links with a spare (which changes their status-change
    /// time), for the sync to stamp again: sorted, each once. None for a folder built
    /// whole, whose objects are the version's.
    var touchedObjects: [SHA1.Digest] {
        var digests = placed.map(\.object.digest)
        digests.sort()
        // Each kept once, in place: a filtered copy, grown by doubling, was the first
        // sync's largest array at its peak (4.7 MB at 100,000 files).
        var kept = 0
        for i in digests.indices where kept == 0 || digests[kept - 1] != digests[i] {
            digests[kept] = digests[i]
            kept += 1
        }
        digests.removeLast(digests.count - kept)
        return digests
    }

    /// Removes a file of the spare, and the folders it leaves empty.
    private func remove(_ path: String) throws {
        let target = staging.path + "/" + path
        if unlink(target) != 0, errno != ENOENT {
            throw ZincError.io(path: target, operation: "remove", errno: errno)
        }
        var components = path.split(separator: "/").dropLast()
        // rmdir fails on a folder that still holds something, which ends the climb.
        while !components.isEmpty, rmdir(staging.path + "/" + components.joined(separator: "/")) == 0 {
            components.removeLast()
        }
    }

    /// Places the files `placeAvailable` left, whose objects must all be there now, and
    /// renames the folder into place. The staging folder is gone afterwards, whatever
    /// happens: call `abandon` instead when the download failed.
    @discardableResult
    func finish(left: FilesLeft) throws -> String {
        var swapped = false
        defer {
            // The folder replaced (one being repaired, a file per file of the bundle) goes to
            // the trash with one rename: removing it is the next sync's, while it waits on
            // the network, so a repair costs the files it changes.
            if !swapped || (try? Trash(repo: repo).discard(staging.path)) == nil { staging.remove() }
        }
        // The version's files read again, those left placed as their rows come.
        var (given, next) = (0, left.after.startIndex)
        try forEachFile { file, row in
            given += 1
            if given > left.leading {
                guard next < left.after.endIndex, left.after[next] == file else { return }
                next += 1
            }
            _ = try place(row, objectMayBeMissing: false)
        }
        guard given >= left.leading, next == left.after.endIndex else {
            throw ZincError.corruptFile(path: folder, reason: "the version's table changed while its folder was built")
        }
        // The objects and the links of the new folder durable before any name refers to it:
        // after a power cut, the version switched to holds its bytes, not empty files.
        try DurableBatch.flush(fileSystemOf: repo.root)
        // A folder of this version already there is one a run killed before its switch
        // left (unused), or the checked-out one being repaired (in use): swapped with the
        // new one, which the app then finds in its place, and set aside in the trash.
        swapped = access(folder, F_OK) == 0
        try FolderSwap.replace(folder, with: staging.path)
        FaultInjection.changed(folder)
        return folder
    }

    /// Removes the staging folder of a checkout that will not be finished.
    func abandon() { staging.remove() }

    /// Links (or copies) one file into the staging folder; false when its object is not
    /// in the repo yet and `objectMayBeMissing`.
    private func place(_ file: ManifestRow, objectMayBeMissing: Bool) throws -> Bool {
        let object = repo.objectFile(file.object.sha)
        // An object arriving meanwhile is linked into place whole: seen or not, never half.
        let target = staging.path + "/" + file.path
        if writable {
            if objectMayBeMissing, access(object, F_OK) != 0 { return false }
            do { _ = try FileClone.cloneOrCopy(object, to: target, mode: 0o644) } catch let error as ZincError where error.errno == EEXIST {
                throw ZincError.invalidPath(file.path, reason: "another file of the bundle already takes its place")
            }
            return true
        }
        if link(object, target) == 0 { return true }
        let code = errno
        switch code {
        case ENOENT where objectMayBeMissing && access(object, F_OK) != 0:
            // The object has not arrived (the file's folder is made): placed by `finish`.
            return false
        case EEXIST, ENOTDIR:
            throw ZincError.invalidPath(
                file.path,
                reason:
                    "another file of the bundle already takes its place (names differing only in case collide on a case-insensitive file system)"
            )
        case EXDEV, EPERM, EMLINK, EOPNOTSUPP:
            // A clone where the file system makes one, so the bytes are still stored once.
            _ = try FileClone.cloneOrCopy(object, to: target, mode: 0o444)
            return true
        default:
            throw ZincError.io(path: target, operation: "link \(object) to", errno: code)
        }
    }
}
