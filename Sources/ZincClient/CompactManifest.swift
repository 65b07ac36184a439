import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a version's manifest, packed: each path's bytes in one buffer, and a
/// 44-byte row per file with its object's digest and sizes and its flavors (each distinct
/// list of flavors kept once), sorted by path. No string or dictionary entry per file, so
/// a bundle of 100,000 files costs a few megabytes, not an object graph (about 400 bytes
/// a file as a `Manifest`).
///
/// The rows hold every file, whatever the flavor, so that a row's index is its file's
/// ordinal in path order: its line in the version's digest list. A table read for a
/// flavor also lists that flavor's rows, which `count`, `index(of:)`, `path(_:)` and
/// `digest(_:)` go by: the files a checked-out folder of that flavor holds.
struct CompactManifest: Sendable, Equatable {
    // This order packs a row in 44 bytes: the flavor set fills the 4-byte alignment after the digest.
    struct Row: Equatable {
        let start: UInt32
        let length: UInt32
        let digest: SHA1.Digest
        let flavorSet: UInt16
        let sizes: StoredObject.Sizes
    }

    /// The bytes a row takes, beside its path's bytes.
    static let rowSize = MemoryLayout<Row>.stride

    /// The room a table read from JSON starts with, for its rows and for its paths' bytes.
    private static let firstRoom = 2 << 20

    let bytes: [UInt8]
    /// Sorted by path bytes, each path once.
    let rows: [Row]
    /// Each distinct list of flavors of a file, which rows refer to by index.
    let flavorSets: [[String]?]
    /// The rows of the flavor the table was read for, in path order; nil for every row.
    private var selected: [UInt32]?

    /// A table of `rows` (sorted by path, each path once) over `bytes`, listing the files
    /// of `flavor` (all without one).
    init(bytes: [UInt8], rows: [Row], flavorSets: [[String]?], flavor: String?) {
        self.bytes = bytes
        self.rows = rows
        self.flavorSets = flavorSets
        if flavor != nil { selected = ordinals(flavor: flavor) }
    }

    /// The kept manifest of `tracked`'s `version`, with the files of the tracked flavor
    /// listed: from its binary table when that is sound and `trust` takes it (see
    /// `ManifestTable`), else read as a stream.
    static func read(_ tracked: RepoState.TrackedBundle, version: Int, in repo: Repo, trust: ManifestTable.Trust) throws
        -> CompactManifest
    {
        guard
            let (_, table, _) = try ManifestTable.read(
                catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor, in: repo, trust: trust)
        else {
            throw ZincError.corruptFile(
                path: repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: version),
                reason: "the manifest of a checked-out version is missing")
        }
        return table
    }

    /// The manifest `document` streams, read into a header and a table (its `files` are
    /// never collected into a dictionary), listing the files of `flavor` (all without one).
    static func read(_ document: StreamedDocument, flavor: String? = nil) throws -> (header: ManifestHeader, table: CompactManifest) {
        var bytes = [UInt8]()
        var rows = [Row]()
        // Room for 2 MiB each from the start: the `zinc` command's allocator maps buffers
        // that large (M_MMAP_THRESHOLD) and gives them back when freed, where the smaller
        // steps of their growth were carved from the heap and stayed resident there once
        // freed (2.4 MB through a first sync at 100,000 files). Room never written costs
        // no memory, so a small manifest's table takes no more.
        bytes.reserveCapacity(Self.firstRoom)
        rows.reserveCapacity(Self.firstRoom / rowSize)
        var builder = RowBuilder(name: document.name)
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: document.name, reason: reason) }
        let manifest = try Manifest.parse(document) { filePath, entry in
            rows.append(try builder.row(filePath, entry))
            bytes.append(contentsOf: filePath.utf8)
        }
        let flavorSets = builder.flavorSets
        let order = { (a: Row, b: Row) in bytes.withUnsafeBufferPointer { Self.compare(slice(a, of: $0), slice(b, of: $0)) } }
        // Manifests list their files in path order: sorting is for those that do not.
        if !rows.indices.dropFirst().allSatisfy({ order(rows[$0 - 1], rows[$0]) < 0 }) { rows.sort { order($0, $1) < 0 } }
        if let twice = rows.indices.dropFirst().first(where: { order(rows[$0 - 1], rows[$0]) == 0 }) {
            let path = String(decoding: bytes[Int(rows[twice].start)..<Int(rows[twice].start + rows[twice].length)], as: UTF8.self)
            throw corrupt("file '\(path)' is listed twice")
        }
        // Not copied to buffers of their size: an array grown by doubling has only its data
        // resident (the room it has to spare was never written), and a copy held both, 7.5
        // MB more at 100,000 files, at the update's peak.
        return (
            ManifestHeader(manifest, fileCount: rows.count),
            CompactManifest(bytes: bytes, rows: rows, flavorSets: flavorSets, flavor: flavor)
        )
    }

    /// Makes a table's rows from a manifest's files as they are parsed, in the order they
    /// come: each path's bytes placed after the last one's, each distinct list of flavors
    /// kept once. What a table read from JSON and one written as it streams in
    /// (`ManifestTableWriter`) share.
    struct RowBuilder {
        /// The name of the manifest, for errors.
        let name: String
        private(set) var flavorSets = [[String]?]()
        private var setIndex = [[String]?: UInt16]()
        // Files in a row mostly share their flavors: the last list is compared before the
        // dictionary hashes one.
        private var last: (flavors: [String]?, set: UInt16)?
        private(set) var rowCount = 0
        private(set) var pathBytes = 0

        init(name: String) { self.name = name }

        /// The row of the file at `path`, its path bytes to be placed next.
        mutating func row(_ path: String, _ entry: Manifest.Entry) throws -> Row {
            func corrupt(_ reason: String) -> ZincError { .corruptFile(path: name, reason: reason) }
            let set: UInt16
            if let last, last.flavors == entry.flavors {
                set = last.set
            } else if let known = setIndex[entry.flavors] {
                set = known
            } else {
                guard flavorSets.count <= Int(UInt16.max) else { throw corrupt("more than \(UInt16.max) distinct lists of flavors") }
                set = UInt16(flavorSets.count)
                setIndex[entry.flavors] = set
                flavorSets.append(entry.flavors)
            }
            last = (entry.flavors, set)
            guard pathBytes + path.utf8.count <= Int(UInt32.max), rowCount < Int(UInt32.max) else {
                throw corrupt("more files or path bytes than a table holds")
            }
            defer {
                rowCount += 1
                pathBytes += path.utf8.count
            }
            return Row(
                start: UInt32(pathBytes), length: UInt32(path.utf8.count), digest: entry.object.digest, flavorSet: set,
                sizes: entry.object.sizes)
        }
    }

    /// The files of a flavor one at a time, in path order (see `ManifestRowCursor`).
    struct Cursor: ManifestRowCursor {
        private let table: CompactManifest
        private let member: [Bool]
        /// The current row; -1 before the first.
        private var j = -1
        private(set) var path = [UInt8]()

        init(_ table: CompactManifest, flavor: String?) {
            self.table = table
            member = table.membership(flavor)
        }

        mutating func next() -> Bool {
            j += 1
            while j < table.rows.count, !member[Int(table.rows[j].flavorSet)] { j += 1 }
            guard j < table.rows.count else { return false }
            let row = table.rows[j]
            path.removeAll(keepingCapacity: true)
            path.append(contentsOf: table.bytes[Int(row.start)..<Int(row.start + row.length)])
            return true
        }

        var ordinal: UInt32 { UInt32(j) }
        var object: StoredObject { StoredObject(digest: table.rows[j].digest, sizes: table.rows[j].sizes) }
    }

    /// Whether each flavor set holds `flavor` (every one for nil), by set index.
    private func membership(_ flavor: String?) -> [Bool] { Self.membership(of: flavorSets, flavor) }

    /// Whether each of `sets` holds `flavor` (every one for nil).
    static func membership(of sets: [[String]?], _ flavor: String?) -> [Bool] {
        sets.map { set in flavor.map { set?.contains($0) ?? false } ?? true }
    }

    /// The rows of `flavor` (every row for nil), by index, in path order.
    func ordinals(flavor: String?) -> [UInt32] {
        let member = membership(flavor)
        return rows.indices.filter { member[Int(rows[$0].flavorSet)] }.map { UInt32($0) }
    }

    /// The file of the row at `ordinal`: its path made now.
    func row(_ ordinal: UInt32) -> ManifestRow {
        let row = rows[Int(ordinal)]
        return ManifestRow(
            ordinal: ordinal, path: String(decoding: bytes[Int(row.start)..<Int(row.start + row.length)], as: UTF8.self),
            object: StoredObject(digest: row.digest, sizes: row.sizes))
    }

    /// The object of the row at `ordinal`, with no path made.
    func digest(ofRow ordinal: UInt32) -> SHA1.Digest { rows[Int(ordinal)].digest }

    /// The files of `flavor` (every file for nil).
    func fileCount(flavor: String?) -> Int {
        let member = membership(flavor)
        return rows.lazy.filter { member[Int($0.flavorSet)] }.count
    }

    /// Each file of `flavor` (every file for nil), in path order: its path's bytes and its
    /// object, with no string made.
    func forEachPath(flavor: String?, _ body: (UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) {
        let member = membership(flavor)
        bytes.withUnsafeBufferPointer { all in
            for row in rows where member[Int(row.flavorSet)] { body(Self.slice(row, of: all), row.digest) }
        }
    }

    /// What turns an earlier version's files of `flavor` into this one's (see
    /// `ManifestChanges.init(merging:into:)`), `earlier` giving each of its files of the
    /// flavor (its path's bytes and object) in path order, from a table held
    /// (`forEachPath`) or one read as a stream (`ManifestTableRows`).
    func changes(from earlier: ((UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) throws -> Void, flavor: String?) throws
        -> ManifestChanges
    {
        var rows: any ManifestRowCursor = Cursor(self, flavor: flavor)
        return try ManifestChanges(merging: earlier, into: &rows)
    }

    // The files of the flavor read for, by their index among them: what the collection reads.

    /// The files of the flavor the table was read for.
    var count: Int { selected?.count ?? rows.count }

    private func rowIndex(_ index: Int) -> Int { selected.map { Int($0[index]) } ?? index }

    /// Each file's object, in path order (an object shared by files comes once a file),
    /// made as it is read: no array of them beside the table.
    var digests: LazyMapSequence<Range<Int>, SHA1.Digest> { (0..<count).lazy.map { rows[rowIndex($0)].digest } }

    static func slice(_ row: Row, of all: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[Int(row.start)..<Int(row.start + row.length)])
    }

    /// Byte order: negative, zero or positive as `a` comes before, is, or comes after `b`.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let base = a.baseAddress, let other = b.baseAddress {
            let order = memcmp(base, other, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}

/// The name `status` and the collection know the table by: the files of a checked-out
/// version.
typealias CheckedOutFiles = CompactManifest
