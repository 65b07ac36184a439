import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A kept manifest's `CompactManifest` and `ManifestHeader` in binary, `B-V.table` beside
/// `B-V.json`, so that every read of a kept version after the first (the spare's, the
/// version left for the collection, `status`'s) is one file read, not a JSON parse.
///
/// Little-endian throughout: "ZMT" and a format byte; the manifest's size (8 bytes) and
/// the SHA-256 of its plain JSON (32; zeros where it was not hashed, in a catalog without
/// trusted keys); the version (8), catalog and bundle (each a 4-byte length and UTF-8);
/// the flavors (a 4-byte count, then each as a string); the row count, path byte count
/// and flavor set count (4 each); the rows (`rowSize` each: path start and length, 4
/// each; digest, 20; flavor set, 2; gz and raw sizes, 8 each, -1 for none); the path
/// bytes; the flavor sets (each a 4-byte count, 0xFFFFFFFF for a file with no flavors,
/// then its strings); and the XXH64 of all that (8).
///
/// A cache: written without a flush, and refused whole (then rebuilt from the manifest)
/// when any check fails: magic, checksum, every length against the bytes left, the rows'
/// order, paths and sizes, the names, and the manifest it describes (`Trust`). It is read
/// in pieces straight into the table's own buffers (`ManifestTableReader`), its checksum
/// taken on the way: at 100,000 files, about 4.6 MB of rows and the path bytes, never a
/// second copy. Only a fetch installs a manifest (`ManifestFetcher`), which removes the
/// table before and writes it after; `repo verify` and repairs read the JSON whatever the
/// table says.
package enum ManifestTable {
    static let magic: [UInt8] = Array("ZMT".utf8) + [2]
    /// The bytes of a row on disk.
    static let rowSize = 46
    private static let noFlavors = UInt32.max
    private static let unhashed = [UInt8](repeating: 0, count: 32)

    /// What a table is taken for.
    enum Trust: Sendable {
        /// Nothing: the manifest is parsed (`repo verify`, repairs, and the kept manifest
        /// of the version a signed sync checks against its signature, which covers the
        /// JSON: a table's recorded SHA-256 is as easily written as its rows).
        case never
        /// A table that describes the manifest's name and size: a kept manifest is named
        /// by its version and never changed in place (a catalog without trusted keys).
        case nameAndSize
        /// A table that also records the SHA-256 of the kept JSON, hashed again as a stream
        /// at each read (a catalog with trusted keys): as trusted as the JSON, which only a
        /// sync that checked its signature gives its name. A table of other content, left
        /// by a bug or written beside it, is refused, whatever its checksum.
        case manifestSHA256

        /// What a table of `catalog` is taken for, by whether the repo has keys for it.
        init(catalog: String, in state: RepoState) {
            self = state.catalogs[catalog]?.trustedKeys.isEmpty == false ? .manifestSHA256 : .nameAndSize
        }
    }

    /// What a table must describe: the kept manifest's name, size and, when hashed, the
    /// SHA-256 of its JSON.
    struct Subject: Sendable {
        let catalog: String
        let bundle: String
        let version: Int
        let size: Int64
        var sha256: SHA256.Digest?
    }

    /// The kept manifest of a version, from its table when `trust` takes it and it is
    /// sound, else read as a stream (the table then written afresh); nil when the repo
    /// has no manifest of it. With `hashing`, the SHA-256 of the kept JSON is returned
    /// too (a signed sync checks it against the signature), taken in the pass that reads
    /// the JSON, and recorded in a table written.
    static func read(
        catalog: String, bundle: String, version: Int, flavor: String?, in repo: Repo, trust: Trust, hashing: Bool = false
    ) throws -> (header: ManifestHeader, table: CompactManifest, sha256: SHA256.Digest?)? {
        guard var subject = try subject(catalog: catalog, bundle: bundle, version: version, in: repo, trust: trust) else { return nil }
        let tablePath = repo.manifestTableFile(catalog, bundle: bundle, version: version)
        if trust != .never, !hashing || subject.sha256 != nil, let table = try? PosixFile.open(tablePath),
            let read = try? decode(table, subject: subject, flavor: flavor, files: true), let files = read.table
        {
            return (read.header, files, subject.sha256)
        }
        let hasher = subject.sha256 == nil && hashing ? SHA256() : nil
        let copy = hasher.map { hasher in { (piece: UnsafeRawBufferPointer) in hasher.update(piece) } }
        guard let document = try repo.keptManifest(catalog: catalog, bundle: bundle, version: version, copy: copy) else { return nil }
        let read = try CompactManifest.read(document, flavor: flavor)
        subject.sha256 = subject.sha256 ?? hasher?.finalize()
        write(read.header, read.table, manifest: subject, to: tablePath)
        return (read.header, read.table, subject.sha256)
    }

    /// The kept manifest named, by its size and (with `trust` `.manifestSHA256`) the
    /// SHA-256 of its JSON, read 64 KiB at a time; nil when the repo has none.
    static func subject(catalog: String, bundle: String, version: Int, in repo: Repo, trust: Trust) throws -> Subject? {
        let path = repo.manifestFile(catalog, bundle: bundle, version: version)
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let sha256 = trust == .manifestSHA256 ? try SHA256.digest(reading: PosixFile.open(path)) : nil
        return Subject(catalog: catalog, bundle: bundle, version: version, size: Int64(status.st_size), sha256: sha256)
    }

    /// Writes the table of `manifest` at `path`, 64 KiB at a time (at 100,000 files the
    /// table is 7.35 MB, never held whole); a failure costs the next read a parse,
    /// nothing more.
    static func write(_ header: ManifestHeader, _ table: CompactManifest, manifest: Subject, to path: String) {
        try? AtomicFile.write(to: path, durable: false) { file in try encode(header, table, manifest: manifest) { try file.write($0) } }
    }

    /// The table's bytes whole: what tests and the fuzz corpus decode.
    static func encode(_ header: ManifestHeader, _ table: CompactManifest, manifest: Subject) throws -> [UInt8] {
        var out = [UInt8]()
        try encode(header, table, manifest: manifest) { out += $0 }
        return out
    }

    /// Gives the table's bytes to `put` in pieces of about 64 KiB, in order, the last
    /// being the checksum of all the others.
    static func encode(_ header: ManifestHeader, _ table: CompactManifest, manifest: Subject, into put: ([UInt8]) throws -> Void)
        throws
    {
        // The rows the table holds, whatever the header says.
        let header = ManifestHeader(
            catalog: header.catalog, bundle: header.bundle, version: header.version, flavors: header.flavors,
            fileCount: table.rows.count)
        try encode(
            header, pathBytes: table.bytes.count, flavorSets: table.flavorSets, manifest: manifest,
            sections: { emit in
                var rows = [UInt8]()
                rows.reserveCapacity(ManifestTableReader.pieceSize)
                for row in table.rows {
                    appendRow(row, to: &rows)
                    if rows.count > ManifestTableReader.pieceSize - rowSize {
                        try rows.withUnsafeBytes(emit)
                        rows.removeAll(keepingCapacity: true)
                    }
                }
                try rows.withUnsafeBytes(emit)
                try table.bytes.withUnsafeBytes { all in
                    for start in stride(from: 0, to: all.count, by: ManifestTableReader.pieceSize) {
                        try emit(UnsafeRawBufferPointer(rebasing: all[start..<min(start + ManifestTableReader.pieceSize, all.count)]))
                    }
                }
            }, into: put)
    }

    /// The same for a table whose `header.fileCount` rows (each as `appendRow` lays it out)
    /// and `pathBytes` path bytes `sections` gives `emit`, in that order and in pieces of
    /// any size: a table held (above), or one written as its manifest streamed in
    /// (`ManifestTableWriter`), from its scratch files. Returns the offset of the first row.
    @discardableResult
    static func encode(
        _ header: ManifestHeader, pathBytes: Int, flavorSets: [[String]?], manifest: Subject,
        sections: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void, into put: ([UInt8]) throws -> Void
    ) throws -> Int {
        // Escaping in name only: `sections` gets a closure that calls it, and returns before this does.
        try withoutActuallyEscaping(put) { put in
            let pieceSize = ManifestTableReader.pieceSize
            var hasher = XXH64()
            var out = magic
            out.reserveCapacity(pieceSize)
            var written = 0
            func flush(above limit: Int) throws {
                guard out.count > limit else { return }
                out.withUnsafeBytes { hasher.update($0) }
                try put(out)
                written += out.count
                out.removeAll(keepingCapacity: true)
            }
            func int<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
            func string(_ value: String) throws {
                try flush(above: pieceSize - 4 - value.utf8.count)
                int(UInt32(value.utf8.count))
                out.append(contentsOf: value.utf8)
            }
            int(manifest.size)
            out += manifest.sha256?.bytes ?? unhashed
            int(Int64(header.version))
            try string(header.catalog)
            try string(header.bundle)
            int(UInt32(header.flavors.count))
            try header.flavors.forEach(string)
            int(UInt32(header.fileCount))
            int(UInt32(pathBytes))
            int(UInt32(flavorSets.count))
            let rowsAt = written + out.count
            try sections { piece in
                try flush(above: max(pieceSize - piece.count, 0))
                out.append(contentsOf: piece)
            }
            for set in flavorSets {
                try flush(above: pieceSize - 4)
                int(set.map { UInt32($0.count) } ?? noFlavors)
                try set?.forEach(string)
            }
            try flush(above: 0)
            int(hasher.digest())
            try put(out)
            return rowsAt
        }
    }

    /// Appends `row` as a table lays it out (`rowSize` bytes).
    static func appendRow(_ row: CompactManifest.Row, to out: inout [UInt8]) {
        func int<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        int(row.start)
        int(row.length)
        row.digest.appendBytes(to: &out)
        int(row.flavorSet)
        int(row.sizes.gz)
        int(row.sizes.raw)
    }

    /// The header and (with `files`) table of the table in `file`, listing the files of
    /// `flavor`, when it is sound and describes `subject`; nil otherwise. Without
    /// `files`, the rows and paths are hashed on the way to the checksum and not kept.
    static func decode(_ file: PosixFile, subject: Subject, flavor: String?, files: Bool) throws -> (
        header: ManifestHeader, table: CompactManifest?
    )? {
        let size = Int(try file.status().st_size)
        guard let reader = ManifestTableReader(size: size, source: { try file.readFully(into: $0, at: Int64($1)) }) else {
            return nil
        }
        return try decode(reader, subject: subject, flavor: flavor, files: files)
    }

    /// The same for a table in memory: what tests and the `manifest-table` fuzz target read.
    static func decode(_ bytes: [UInt8], subject: Subject, flavor: String?, files: Bool = true) -> (
        header: ManifestHeader, table: CompactManifest?
    )? {
        guard let reader = ManifestTableReader(bytes: bytes) else { return nil }
        return try? decode(reader, subject: subject, flavor: flavor, files: files)
    }

    /// The files of the table in `bytes`, read whole for the flavor "hd" (after a read of
    /// its header alone), when it is sound for `bundle`-`version` of `catalog`, a manifest of
    /// `size` bytes whose SHA-256 was not hashed: the entry point of the `manifest-table`
    /// fuzz target, which must return whatever the bytes, allocating nothing by a count
    /// the bytes left do not hold.
    package static func fileCount(inTable bytes: [UInt8], catalog: String, bundle: String, version: Int, size: Int64) -> Int? {
        let subject = Subject(catalog: catalog, bundle: bundle, version: version, size: size)
        guard decode(bytes, subject: subject, flavor: nil, files: false) != nil else { return nil }
        return decode(bytes, subject: subject, flavor: "hd")?.table?.count
    }

    /// The header `reader` is at, from the table's start, when the table describes
    /// `subject`, with its counts of path bytes and flavor sets, each held against the
    /// bytes left.
    private static func opening(_ reader: inout ManifestTableReader, subject: Subject) throws -> (
        header: ManifestHeader, pathBytes: Int, flavorSets: Int
    )? {
        // A table is never larger than its manifest's JSON allows (a file's row, path and
        // flavors are fewer bytes than its entry), plus its fixed parts: no count in a
        // larger file is believed.
        let (twice, overflow) = subject.size.multipliedReportingOverflow(by: 2)
        guard overflow || Int64(reader.end) <= twice + 4096,
            try reader.take(magic.count, { $0.elementsEqual(magic) }) == true,
            let (header, byteCount, setCount) = try Self.header(&reader, subject: subject),
            // Every count is held against the bytes left before anything is made by it.
            header.fileCount <= reader.remaining / rowSize, byteCount <= reader.remaining - header.fileCount * rowSize
        else { return nil }
        return (header, byteCount, setCount)
    }

    /// Where a table's rows and path bytes lie in its file, and its flavor sets: what
    /// `ManifestTableRows` reads the rows by.
    struct Layout: Sendable {
        let header: ManifestHeader
        /// The offset of the first row.
        let rowsAt: Int
        let pathBytes: Int
        let flavorSets: [[String]?]
        /// The offset of the first path byte.
        var pathsAt: Int { rowsAt + header.fileCount * rowSize }
    }

    /// The layout of the table in `file` when it is sound (its checksum taken over every
    /// byte) and describes `subject`, its rows and paths hashed on the way and not kept;
    /// nil otherwise. The rows themselves are checked as they are read.
    static func layout(_ file: PosixFile, subject: Subject) throws -> Layout? {
        let size = Int(try file.status().st_size)
        guard let reader = ManifestTableReader(size: size, source: { try file.readFully(into: $0, at: Int64($1)) }) else { return nil }
        return try layout(reader, subject: subject)
    }

    private static func layout(_ reader: ManifestTableReader, subject: Subject) throws -> Layout? {
        var reader = reader
        guard let (header, byteCount, setCount) = try opening(&reader, subject: subject) else { return nil }
        let rowsAt = reader.end - reader.remaining
        guard try reader.skip(header.fileCount * rowSize + byteCount), let sets = try flavorSets(&reader, count: setCount),
            try reader.finish()
        else { return nil }
        return Layout(header: header, rowsAt: rowsAt, pathBytes: byteCount, flavorSets: sets)
    }

    private static func decode(_ reader: ManifestTableReader, subject: Subject, flavor: String?, files: Bool) throws -> (
        header: ManifestHeader, table: CompactManifest?
    )? {
        // Without the files, the rows and paths are hashed on the way to the checksum.
        guard files else { return try layout(reader, subject: subject).map { ($0.header, nil) } }
        var reader = reader
        guard let (header, byteCount, setCount) = try opening(&reader, subject: subject),
            let rows = try rows(&reader, count: header.fileCount, pathBytes: byteCount, sets: setCount)
        else { return nil }
        var complete = true
        let paths = try [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, count in
            complete = try reader.read(into: UnsafeMutableRawBufferPointer(buffer))
            count = complete ? byteCount : 0
        }
        guard complete, let flavorSets = try flavorSets(&reader, count: setCount), try reader.finish(),
            rowsHold(rows, paths: paths)
        else { return nil }
        return (header, CompactManifest(bytes: paths, rows: rows, flavorSets: flavorSets, flavor: flavor))
    }

    /// The header `reader` is at when it describes `subject`, with the counts of path
    /// bytes and flavor sets that follow the counts of files.
    private static func header(_ reader: inout ManifestTableReader, subject: Subject) throws -> (
        header: ManifestHeader, pathBytes: Int, flavorSets: Int
    )? {
        guard try reader.int(Int64.self) == subject.size,
            let recorded = try reader.take(32, { Array($0) }), subject.sha256.map({ $0.bytes == recorded }) ?? true,
            try reader.int(Int64.self) == Int64(subject.version), try reader.string() == subject.catalog,
            try reader.string() == subject.bundle, let flavors = try reader.strings(), flavors.allSatisfy(isFlavor),
            let rowCount = try reader.count(), let byteCount = try reader.count(), let setCount = try reader.count(),
            setCount <= Int(UInt16.max) + 1
        else { return nil }
        return (
            ManifestHeader(
                catalog: subject.catalog, bundle: subject.bundle, version: subject.version, flavors: flavors, fileCount: rowCount),
            byteCount, setCount
        )
    }

    /// The header alone of a kept manifest, what `LMFOHint` weighs the version in use by:
    /// from its table when `trust` takes it, checked whole with nothing of its rows kept,
    /// else from the manifest read as a stream (its table is left to a read of the
    /// files); nil when the repo has no manifest of the version.
    static func header(catalog: String, bundle: String, version: Int, in repo: Repo, trust: Trust) throws -> ManifestHeader? {
        guard let subject = try subject(catalog: catalog, bundle: bundle, version: version, in: repo, trust: trust) else { return nil }
        if trust != .never, let table = try? PosixFile.open(repo.manifestTableFile(catalog, bundle: bundle, version: version)),
            let read = try? decode(table, subject: subject, flavor: nil, files: false)
        {
            return read.header
        }
        guard let document = try repo.keptManifest(catalog: catalog, bundle: bundle, version: version) else { return nil }
        var count = 0
        let manifest = try Manifest.parse(document) { _, _ in count += 1 }
        return ManifestHeader(manifest, fileCount: count)
    }

    /// The `count` rows `reader` is at, each checked as it is read: its path inside the
    /// `pathBytes` that follow, its flavor set among `sets`, its sizes those of an object.
    private static func rows(_ reader: inout ManifestTableReader, count: Int, pathBytes: Int, sets: Int) throws
        -> [CompactManifest.Row]?
    {
        var rows = [CompactManifest.Row]()
        rows.reserveCapacity(count)
        for _ in 0..<count {
            guard let row = try self.row(&reader, pathBytes: pathBytes, sets: sets) else { return nil }
            rows.append(row)
        }
        return rows
    }

    /// The row `reader` is at, nil when it breaks a rule: its path inside the `pathBytes`
    /// that follow the rows, its flavor set among `sets`, its sizes those of an object.
    static func row(_ reader: inout ManifestTableReader, pathBytes: Int, sets: Int) throws -> CompactManifest.Row? {
        try reader.take(rowSize) { bytes -> CompactManifest.Row? in
            func int<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
                T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            let (start, length, set) = (int(UInt32.self, at: 0), int(UInt32.self, at: 4), int(UInt16.self, at: 28))
            let (gz, raw) = (int(Int64.self, at: 30), int(Int64.self, at: 38))
            guard Int(start) + Int(length) <= pathBytes, Int(set) < sets, gz <= Manifest.maximumObjectSize,
                raw <= Manifest.maximumObjectSize, gz >= -1, raw >= -1, gz >= 0 || raw >= 0
            else { return nil }
            let sizes = StoredObject.Sizes(gz: gz, raw: raw)
            let digest = SHA1.Digest(bytes: UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[8..<28]))
            return CompactManifest.Row(start: start, length: length, digest: digest, flavorSet: set, sizes: sizes)
        } ?? nil
    }

    /// The `count` flavor sets `reader` is at.
    private static func flavorSets(_ reader: inout ManifestTableReader, count: Int) throws -> [[String]?]? {
        var sets = [[String]?]()
        for _ in 0..<count {
            guard let count = try reader.int(UInt32.self) else { return nil }
            if count == noFlavors {
                sets.append(nil)
            } else {
                guard let set = try reader.strings(count: Int(count)), set.allSatisfy(isFlavor) else { return nil }
                sets.append(set)
            }
        }
        return sets
    }

    /// Whether each row's path is safe and after the one before.
    private static func rowsHold(_ rows: [CompactManifest.Row], paths: [UInt8]) -> Bool {
        paths.withUnsafeBufferPointer { paths in
            rows.indices.allSatisfy { i in
                pathHolds(CompactManifest.slice(rows[i], of: paths), after: i > 0 ? CompactManifest.slice(rows[i - 1], of: paths) : nil)
            }
        }
    }

    /// Whether a row's path is safe and after the path of the row before (if any).
    static func pathHolds(_ path: UnsafeBufferPointer<UInt8>, after previous: UnsafeBufferPointer<UInt8>?) -> Bool {
        if let previous, CompactManifest.compare(previous, path) >= 0 { return false }
        return validString(path).map { (try? Names.validateRelativePath($0)) != nil } == true
    }

    private static func isFlavor(_ name: String) -> Bool { (try? Names.validateFlavorName(name)) != nil }

    /// `bytes` as a string when they are valid UTF-8.
    static func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        return string.utf8.elementsEqual(bytes) ? string : nil
    }
}
