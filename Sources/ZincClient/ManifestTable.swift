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
/// Little-endian throughout: "ZMT" and a format byte; the manifest's size (8 bytes); the
/// version (8), catalog and bundle (each a 4-byte length and UTF-8); the flavors (a
/// 4-byte count, then each as a string); the row count, path byte count and flavor set
/// count (4 each); the rows (`rowSize` each: path start and length, 4 each; digest, 20;
/// flavor set, 2; gz and raw sizes, 8 each, -1 for none); the path bytes; the flavor
/// sets (each a 4-byte count, 0xFFFFFFFF for a file with no flavors, then its strings);
/// and the XXH64 of all that (8).
///
/// A cache: written without a flush, and refused whole (then rebuilt from the manifest)
/// when any check fails: magic, checksum, every length against the bytes left, the rows'
/// order, paths and sizes, the names. It records the manifest's size and version, bundle
/// and catalog rather than its hash, which would cost each read most of the parse it
/// saves: a kept manifest is named by its version and never changed in place. Only a
/// fetch installs one (`ManifestFetcher`), which removes the table before and writes it
/// after; a manifest of the same name replaced another way keeps its size only by
/// chance, and `repo verify` and repairs read the JSON whatever the table says.
enum ManifestTable {
    static let magic: [UInt8] = Array("ZMT".utf8) + [1]
    /// The bytes of a row on disk.
    static let rowSize = 46
    private static let noFlavors = UInt32.max

    /// The kept manifest of a version, from its table when `trustingTable` and the table
    /// is sound, else read as a stream (the table then written afresh); nil when the repo
    /// has no manifest of it.
    static func read(
        catalog: String, bundle: String, version: Int, flavor: String?, in repo: Repo, trustingTable: Bool = true
    ) throws -> (header: ManifestHeader, table: CompactManifest)? {
        guard let document = try repo.keptManifest(catalog: catalog, bundle: bundle, version: version) else { return nil }
        let tablePath = repo.manifestTableFile(catalog, bundle: bundle, version: version)
        var status = stat()
        guard stat(repo.manifestFile(catalog, bundle: bundle, version: version), &status) == 0 else { return nil }
        let manifestSize = Int64(status.st_size)
        if trustingTable, let bytes = try? AtomicFile.read(tablePath, limit: limit(manifestSize)),
            let (header, table) = decode(
                bytes, catalog: catalog, bundle: bundle, version: version, manifestSize: manifestSize, flavor: flavor)
        {
            return (header, table)
        }
        let read = try CompactManifest.read(document, flavor: flavor)
        write(read.header, read.table, manifestSize: manifestSize, to: tablePath)
        return read
    }

    /// Writes the table of a manifest of `manifestSize` bytes at `path`; a failure costs
    /// the next read a parse, nothing more.
    static func write(_ header: ManifestHeader, _ table: CompactManifest, manifestSize: Int64, to path: String) {
        try? AtomicFile.write(encode(header, table, manifestSize: manifestSize), to: path, durable: false)
    }

    /// A table is never larger than its manifest's JSON allows (a file's row, path and
    /// flavors are fewer bytes than its entry), plus its fixed parts.
    private static func limit(_ manifestSize: Int64) -> Int64 {
        manifestSize.multipliedReportingOverflow(by: 2).overflow ? Int64.max : manifestSize * 2 + 4096
    }

    static func encode(_ header: ManifestHeader, _ table: CompactManifest, manifestSize: Int64) -> [UInt8] {
        var out = magic
        out.reserveCapacity(64 + table.rows.count * rowSize + table.bytes.count)
        func int<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        func string(_ value: String) {
            int(UInt32(value.utf8.count))
            out.append(contentsOf: value.utf8)
        }
        int(manifestSize)
        int(Int64(header.version))
        string(header.catalog)
        string(header.bundle)
        int(UInt32(header.flavors.count))
        header.flavors.forEach(string)
        int(UInt32(table.rows.count))
        int(UInt32(table.bytes.count))
        int(UInt32(table.flavorSets.count))
        for row in table.rows {
            int(row.start)
            int(row.length)
            row.digest.appendBytes(to: &out)
            int(row.flavorSet)
            int(row.sizes.gz)
            int(row.sizes.raw)
        }
        out += table.bytes
        for set in table.flavorSets {
            int(set.map { UInt32($0.count) } ?? noFlavors)
            set?.forEach(string)
        }
        int(XXH64.hash(out))
        return out
    }

    /// The header and table in `bytes`, listing the files of `flavor`, when they are sound
    /// and describe the manifest named; nil otherwise.
    static func decode(
        _ bytes: [UInt8], catalog: String, bundle: String, version: Int, manifestSize: Int64, flavor: String?
    ) -> (header: ManifestHeader, table: CompactManifest)? {
        guard bytes.count >= magic.count + 8, bytes.starts(with: magic) else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            let body = all.count - 8
            var checksum = Reader(all, at: body)
            guard checksum.int(UInt64.self) == XXH64.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[..<body]))) else {
                return nil
            }
            var reader = Reader(all, at: magic.count, end: body)
            guard
                let (header, byteCount, setCount) = Self.header(
                    &reader, catalog: catalog, bundle: bundle, version: version, manifestSize: manifestSize),
                let rowBytes = reader.take(header.fileCount, times: rowSize), let paths = reader.take(byteCount)
            else { return nil }
            let rowCount = header.fileCount
            var flavorSets = [[String]?]()
            for _ in 0..<setCount {
                guard let count = reader.int(UInt32.self) else { return nil }
                if count == noFlavors {
                    flavorSets.append(nil)
                } else {
                    guard let set = reader.strings(count: Int(count)), set.allSatisfy(isFlavor) else { return nil }
                    flavorSets.append(set)
                }
            }
            let pathBytes = UnsafeBufferPointer(rebasing: all[paths])
            guard reader.at == body,
                let rows = rows(Reader(all, at: rowBytes.lowerBound), count: rowCount, paths: pathBytes, sets: setCount)
            else { return nil }
            return (header, CompactManifest(bytes: Array(pathBytes), rows: rows, flavorSets: flavorSets, flavor: flavor))
        }
    }

    /// The header `reader` is at when it describes the manifest named, with the counts of
    /// path bytes and flavor sets that follow the counts of files.
    private static func header(_ reader: inout Reader, catalog: String, bundle: String, version: Int, manifestSize: Int64) -> (
        header: ManifestHeader, pathBytes: Int, flavorSets: Int
    )? {
        guard reader.int(Int64.self) == manifestSize, reader.int(Int64.self) == Int64(version), reader.string() == catalog,
            reader.string() == bundle, let flavors = reader.strings(), flavors.allSatisfy(isFlavor),
            let rowCount = reader.count(), let byteCount = reader.count(), let setCount = reader.count(), setCount <= Int(UInt16.max) + 1
        else { return nil }
        return (
            ManifestHeader(catalog: catalog, bundle: bundle, version: version, flavors: flavors, fileCount: rowCount), byteCount, setCount
        )
    }

    /// The header alone of a kept manifest, what `LMFOHint` weighs the version in use by:
    /// from its table, checked in pieces with nothing of its rows kept, else from the
    /// manifest read as a stream (its table is left to a read of the files); nil when the
    /// repo has no manifest of the version.
    static func header(catalog: String, bundle: String, version: Int, in repo: Repo) throws -> ManifestHeader? {
        guard let document = try repo.keptManifest(catalog: catalog, bundle: bundle, version: version) else { return nil }
        var status = stat()
        guard stat(repo.manifestFile(catalog, bundle: bundle, version: version), &status) == 0 else { return nil }
        let manifestSize = Int64(status.st_size)
        if let table = try? PosixFile.open(repo.manifestTableFile(catalog, bundle: bundle, version: version)),
            let size = try? Int(table.status().st_size), size >= magic.count + 8, Int64(size) <= limit(manifestSize),
            let prefix = try? table.readAll(upTo: min(size - 8, 1 << 16), at: 0), prefix.starts(with: magic),
            let header = prefix.withUnsafeBufferPointer({ all -> ManifestHeader? in
                var reader = Reader(all, at: magic.count)
                return Self.header(&reader, catalog: catalog, bundle: bundle, version: version, manifestSize: manifestSize)?.header
            }),
            (try? checksumHolds(table, size: size)) == true
        {
            return header
        }
        var count = 0
        let manifest = try Manifest.parse(document) { _, _ in count += 1 }
        return ManifestHeader(manifest, fileCount: count)
    }

    /// Whether the table's last 8 bytes are the XXH64 of the rest, read a piece at a time.
    private static func checksumHolds(_ table: PosixFile, size: Int) throws -> Bool {
        var hasher = XXH64()
        var at = 0
        let piece = 1 << 16
        while at < size - 8 {
            let bytes = try table.readAll(upTo: min(piece, size - 8 - at), at: Int64(at))
            guard !bytes.isEmpty else { return false }
            bytes.withUnsafeBytes { hasher.update($0) }
            at += bytes.count
        }
        let stored = try table.readAll(upTo: 8, at: Int64(size - 8))
        guard stored.count == 8 else { return false }
        return stored.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } == hasher.digest().littleEndian
    }

    /// The rows `reader` is at, each checked: its path inside `paths`, safe, after the one
    /// before; its flavor set among `sets`; its sizes those of an object.
    private static func rows(_ reader: Reader, count: Int, paths: UnsafeBufferPointer<UInt8>, sets: Int) -> [CompactManifest.Row]? {
        var reader = reader
        var rows = [CompactManifest.Row]()
        rows.reserveCapacity(count)
        for _ in 0..<count {
            guard let start = reader.int(UInt32.self), let length = reader.int(UInt32.self), let digest = reader.digest(),
                let set = reader.int(UInt16.self), let gz = reader.int(Int64.self), let raw = reader.int(Int64.self),
                Int(start) + Int(length) <= paths.count, Int(set) < sets, gz >= -1, raw >= -1, gz >= 0 || raw >= 0
            else { return nil }
            let row = CompactManifest.Row(
                start: start, length: length, digest: digest, flavorSet: set, sizes: StoredObject.Sizes(gz: gz, raw: raw))
            let path = CompactManifest.slice(row, of: paths)
            if let last = rows.last, CompactManifest.compare(CompactManifest.slice(last, of: paths), path) >= 0 { return nil }
            guard isValidString(path).map({ (try? Names.validateRelativePath($0)) != nil }) == true else { return nil }
            rows.append(row)
        }
        return rows
    }

    private static func isFlavor(_ name: String) -> Bool { (try? Names.validateFlavorName(name)) != nil }

    /// `bytes` as a string when they are valid UTF-8.
    private static func isValidString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        return string.utf8.elementsEqual(bytes) ? string : nil
    }

    /// Reads little-endian fields of a buffer up to `end`, answering nil for any that
    /// would pass it: no count read is trusted.
    private struct Reader {
        let all: UnsafeBufferPointer<UInt8>
        var at: Int
        let end: Int

        init(_ all: UnsafeBufferPointer<UInt8>, at: Int, end: Int? = nil) {
            self.all = all
            self.at = at
            self.end = end ?? all.count
        }

        /// The range of the next `count` × `times` bytes, stepped over.
        mutating func take(_ count: Int, times: Int = 1) -> Range<Int>? {
            let (length, overflow) = count.multipliedReportingOverflow(by: times)
            guard !overflow, length >= 0, length <= end - at else { return nil }
            defer { at += length }
            return at..<(at + length)
        }

        mutating func int<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard let range = take(MemoryLayout<T>.size) else { return nil }
            return T(littleEndian: UnsafeRawBufferPointer(all).loadUnaligned(fromByteOffset: range.lowerBound, as: T.self))
        }

        mutating func digest() -> SHA1.Digest? { take(20).map { SHA1.Digest(bytes: UnsafeBufferPointer(rebasing: all[$0])) } }

        mutating func count() -> Int? { int(UInt32.self).map(Int.init) }

        mutating func string() -> String? {
            guard let length = count(), let range = take(length) else { return nil }
            return isValidString(UnsafeBufferPointer(rebasing: all[range]))
        }

        /// `count` strings (a count read first without it), each no shorter than its length.
        mutating func strings(count: Int? = nil) -> [String]? {
            guard let count = count ?? self.count(), count <= (end - at) / 4 else { return nil }
            var strings = [String]()
            for _ in 0..<count {
                guard let string = string() else { return nil }
                strings.append(string)
            }
            return strings
        }
    }
}
