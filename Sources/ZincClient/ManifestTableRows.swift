import Zinc

/// A kept version's files read one at a time from its table (`ManifestTable`), in path
/// order, with nothing of them held but the row and path being read: what an update
/// compares its spare's files with, where the spare's table read whole took 7.6 MB at
/// 100,000 files beside the new version's.
///
/// The table is checked whole before any row is given (its header against the kept
/// manifest, as `trust` takes it, and its checksum, taken over every byte 64 KiB at a
/// time); each row is then checked as it is read, as a table read whole is: its path
/// inside the path bytes, safe and after the one before, its flavor set and sizes. Two
/// readers go through the file side by side, one over the rows and one over the path
/// bytes, which a table lays out in row order: a table whose paths are laid out in
/// another order (none that zinc writes) is refused like a broken one.
struct ManifestTableRows {
    private let file: PosixFile
    private let path: String
    private let layout: ManifestTable.Layout

    /// The table of `tracked`'s bundle at `version`, nil when there is none, `trust` takes
    /// none, or it is not sound or does not describe the kept manifest.
    init?(_ tracked: RepoState.TrackedBundle, version: Int, in repo: Repo, trust: ManifestTable.Trust) throws {
        path = repo.manifestTableFile(tracked.catalog, bundle: tracked.bundle, version: version)
        guard trust != .never,
            let subject = try ManifestTable.subject(
                catalog: tracked.catalog, bundle: tracked.bundle, version: version, in: repo, trust: trust),
            let file = try? PosixFile.open(path), let layout = try? ManifestTable.layout(file, subject: subject)
        else { return nil }
        self.file = file
        self.layout = layout
    }

    /// The table at `path` (open as `file`), whose `layout` was read, or known from its
    /// writing (`ManifestTableWriter`).
    init(file: PosixFile, path: String, layout: ManifestTable.Layout) {
        self.file = file
        self.path = path
        self.layout = layout
    }

    /// Gives `body` each file of `flavor` (every file for nil), in path order: its path's
    /// bytes and its object. Throws, having given some, at the first row that breaks a
    /// rule: nothing given is then to be believed.
    func forEach(flavor: String?, _ body: (UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) throws {
        var rows = try cursor(flavor: flavor)
        while try rows.next() { rows.path.withUnsafeBufferPointer { body($0, rows.object.digest) } }
    }

    /// Gives `body` the object of each file of `flavor` (every file for nil), in path
    /// order, reading the rows alone: each is checked as a row, its path not read, for a
    /// table whose paths a pass has checked already (an update's merge).
    func forEachObject(flavor: String?, _ body: (StoredObject) -> Void) throws {
        let member = CompactManifest.membership(of: layout.flavorSets, flavor)
        guard var rows = reader(at: layout.rowsAt, count: layout.header.fileCount * ManifestTable.rowSize) else {
            throw broken("its rows run past its end")
        }
        for index in 0..<layout.header.fileCount {
            guard let row = try ManifestTable.row(&rows, pathBytes: layout.pathBytes, sets: layout.flavorSets.count) else {
                throw broken("row \(index) is not a file's row")
            }
            if member[Int(row.flavorSet)] { body(StoredObject(digest: row.digest, sizes: row.sizes)) }
        }
    }

    /// The files of `flavor` (every file for nil), one at a time.
    func cursor(flavor: String?) throws -> Cursor {
        let rowBytes = layout.header.fileCount * ManifestTable.rowSize
        guard let rows = reader(at: layout.rowsAt, count: rowBytes), let paths = reader(at: layout.pathsAt, count: layout.pathBytes)
        else { throw broken("its rows run past its end") }
        return Cursor(table: self, rows: rows, paths: paths, member: CompactManifest.membership(of: layout.flavorSets, flavor))
    }

    /// The files of a flavor, each row checked as it is read (see `ManifestRowCursor`).
    struct Cursor: ManifestRowCursor {
        fileprivate let table: ManifestTableRows
        fileprivate var rows: ManifestTableReader
        fileprivate var paths: ManifestTableReader
        fileprivate let member: [Bool]
        /// The row to read next, and where its path starts.
        private var index = 0
        private var start = 0
        /// The path of the row read last, whatever its flavor: the next one's must come after it.
        private(set) var path = [UInt8]()
        /// The buffer of the path before, where the next one is read.
        private var spare = [UInt8]()
        private(set) var ordinal: UInt32 = 0
        private(set) var object = StoredObject(digest: SHA1.Digest(bytes: [UInt8](repeating: 0, count: 20)), sizes: .init(gz: -1, raw: 0))

        fileprivate init(table: ManifestTableRows, rows: ManifestTableReader, paths: ManifestTableReader, member: [Bool]) {
            self.table = table
            self.rows = rows
            self.paths = paths
            self.member = member
        }

        mutating func next() throws -> Bool {
            let layout = table.layout
            while index < layout.header.fileCount {
                guard let row = try ManifestTable.row(&rows, pathBytes: layout.pathBytes, sets: layout.flavorSets.count),
                    Int(row.start) == start
                else { throw table.broken("row \(index) is not a file's row in path order") }
                start += Int(row.length)
                let (first, previous) = (index == 0, path)
                var next = [UInt8]()
                swap(&next, &spare)
                next.removeAll(keepingCapacity: true)
                let holds = try paths.take(Int(row.length)) { bytes -> Bool in
                    let bytes = bytes.assumingMemoryBound(to: UInt8.self)
                    guard previous.withUnsafeBufferPointer({ ManifestTable.pathHolds(bytes, after: first ? nil : $0) }) else {
                        return false
                    }
                    next.append(contentsOf: bytes)
                    return true
                }
                guard holds == true else { throw table.broken("the path of row \(index) is not safe, or not after the one before") }
                (spare, path) = (path, next)
                index += 1
                if member[Int(row.flavorSet)] {
                    ordinal = UInt32(index - 1)
                    object = StoredObject(digest: row.digest, sizes: row.sizes)
                    return true
                }
            }
            return false
        }
    }

    /// A reader of the `count` bytes at `offset` of the file, taken in pieces of 64 KiB.
    private func reader(at offset: Int, count: Int) -> ManifestTableReader? {
        // The reader stops 8 bytes before its size, where a table's checksum starts.
        ManifestTableReader(size: count + 8) { [file] buffer, at in try file.readFully(into: buffer, at: Int64(offset + at)) }
    }

    fileprivate func broken(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
}
