import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// A kept manifest's table in binary (`B-V.table`): read back, it is the table the JSON
/// gives, for every flavor; a table that fails any check (cut, a byte flipped, another
/// magic, counts past the file, paths out of order or unsafe, another manifest's) is
/// refused and rebuilt from the manifest, with the same result as reading the JSON.
@Suite struct ManifestTableTests {
    typealias Read = (header: ManifestHeader, table: CompactManifest)
    static let catalog = "com.example.app"

    /// A repo holding `json` as the kept manifest of B-1.
    static func repo(keeping json: [UInt8], in dir: TemporaryDirectory) throws -> Repo {
        let repo = try Repo.initialize(at: dir.at("repo"))
        try dir.write("repo/manifests/\(catalog)/B-1.json", json)
        return repo
    }

    static func fromJSON(_ json: [UInt8], flavor: String?, in dir: TemporaryDirectory) throws -> Read {
        let path = try dir.write("m-\(UUID().uuidString).json", json)
        return try CompactManifest.read(StreamedDocument(path: path, name: "B-1.json", gzipped: false), flavor: flavor)
    }

    static func kept(_ repo: Repo, flavor: String? = nil, trust: ManifestTable.Trust = .nameAndSize) throws -> Read {
        let read = try #require(try ManifestTable.read(catalog: catalog, bundle: "B", version: 1, flavor: flavor, in: repo, trust: trust))
        return (read.header, read.table)
    }

    /// B-1 of `catalog`, of `size` bytes.
    static func subject(size: Int, sha256: SHA256.Digest? = nil) -> ManifestTable.Subject {
        ManifestTable.Subject(catalog: catalog, bundle: "B", version: 1, size: Int64(size), sha256: sha256)
    }

    static let tablePath = "repo/manifests/\(catalog)/B-1.table"

    static func flavored() -> Manifest {
        CompactManifestTests.manifest(
            version: 1, ["b/2.png": (2, ["hd"]), "a.txt": (1, ["hd", "sd"]), "b/1.png": (3, ["sd"]), "c": (1, nil)])
    }

    /// Files out of path order, as zinc never writes them.
    static let unsorted = Array(
        #"{"bundle":"B","catalog":"com.example.app","files":{"z":{"formats":{"gz":{"size":7},"raw":{"size":10}},"sha":"\#(String(repeating: "a", count: 40))"},"m/x":{"formats":{"raw":{"size":0}},"sha":"\#(String(repeating: "b", count: 40))"}},"version":1}"#
            .utf8)

    static let empty = Array(#"{"bundle":"B","catalog":"com.example.app","files":{},"flavors":["hd"],"version":1}"#.utf8)

    /// The first read parses the manifest and writes the table; later ones read the table
    /// alone (the manifest, made garbage of its size, is not looked at), and every read
    /// equals the JSON's, for each flavor.
    @Test(arguments: [("flavored", flavored().encoded()), ("unsorted", unsorted), ("no files", empty)])
    func theTableReadsBackAsTheManifest(name: String, json: [UInt8]) throws {
        let dir = try TemporaryDirectory()
        let repo = try Self.repo(keeping: json, in: dir)
        #expect(!dir.exists(Self.tablePath))
        let first = try Self.kept(repo)
        #expect(dir.exists(Self.tablePath))
        try dir.write("repo/manifests/\(Self.catalog)/B-1.json", [UInt8](repeating: UInt8(ascii: " "), count: json.count))
        for flavor in [nil, "hd", "sd"] {
            let expected = try Self.fromJSON(json, flavor: flavor, in: dir)
            let table = try Self.kept(repo, flavor: flavor)
            #expect(table.header == expected.header && table.table == expected.table, "\(name), flavor \(flavor ?? "none")")
        }
        #expect(first.header == (try Self.fromJSON(json, flavor: nil, in: dir)).header)
    }

    /// Where the counts start: after the magic, size, SHA-256, version, catalog, bundle and flavors.
    static func countsOffset(_ header: ManifestHeader) -> Int {
        4 + 8 + 32 + 8 + 4 + header.catalog.utf8.count + 4 + header.bundle.utf8.count + 4
            + header.flavors.reduce(0) { $0 + 4 + $1.utf8.count }
    }

    /// `bytes` with their checksum made again: only the other checks can refuse them.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        let body = Array(bytes.dropLast(8))
        return body + withUnsafeBytes(of: XXH64.hash(body).littleEndian) { Array($0) }
    }

    static func hostile(_ good: [UInt8], counts: Int) -> [(String, [UInt8])] {
        let rows = counts + 12
        let paths = rows + 4 * ManifestTable.rowSize
        var flipped = good
        flipped[rows + 10] ^= 0x40
        var magic = good
        magic[0] = UInt8(ascii: "X")
        var overflowing = good
        overflowing.replaceSubrange(counts..<(counts + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        var pathBytesPast = good
        pathBytesPast.replaceSubrange((counts + 4)..<(counts + 8), with: [0xFF, 0xFF, 0xFF, 0x7F])
        // The first two rows' paths swapped: out of order.
        var swapped = good
        let first = Array(good[rows..<(rows + 8)])
        swapped.replaceSubrange(rows..<(rows + 8), with: good[(rows + ManifestTable.rowSize)..<(rows + ManifestTable.rowSize + 8)])
        swapped.replaceSubrange((rows + ManifestTable.rowSize)..<(rows + ManifestTable.rowSize + 8), with: first)
        // The first path, "a.txt", made absolute: "/.txt", still first.
        var absolute = good
        absolute[paths] = UInt8(ascii: "/")
        var flavorOutOfRange = good
        flavorOutOfRange.replaceSubrange((rows + 28)..<(rows + 30), with: [0xFF, 0x00])
        // The first row's gz size made 1 TiB and a byte, then 2^56: above any object a
        // manifest may state, and past what an object's sizes hold.
        var oversized = good
        oversized.replaceSubrange((rows + 30)..<(rows + 38), with: withUnsafeBytes(of: (Int64(1) << 40 + 1).littleEndian, Array.init))
        var huge = good
        huge.replaceSubrange((rows + 38)..<(rows + 46), with: withUnsafeBytes(of: (Int64(1) << 56).littleEndian, Array.init))
        return [
            ("cut short", Array(good.dropLast(9))), ("cut in half", Array(good.prefix(good.count / 2))), ("empty", []),
            ("a byte flipped", flipped), ("another magic", resealed(magic)), ("a row count past the file", resealed(overflowing)),
            ("a path byte count past the file", resealed(pathBytesPast)), ("paths out of order", resealed(swapped)),
            ("an absolute path", resealed(absolute)), ("a flavor set past the sets", resealed(flavorOutOfRange)),
            ("a size above the largest object", resealed(oversized)), ("a size past 48 bits", resealed(huge)),
            ("bytes after the end", resealed(good.dropLast(8) + [0] + good.suffix(8))),
        ]
    }

    /// The `hostile` tables whose header, length and checksum are sound, one of whose rows
    /// breaks a rule: refused at that row, which a read of the header alone does not reach.
    static let brokenRows: Set = [
        "paths out of order", "an absolute path", "a flavor set past the sets", "a size above the largest object",
        "a size past 48 bits",
    ]

    @Test func aTableFailingAnyCheckIsRebuiltFromTheManifest() throws {
        let dir = try TemporaryDirectory()
        let json = Self.flavored().encoded()
        let repo = try Self.repo(keeping: json, in: dir)
        let expected = try Self.fromJSON(json, flavor: "hd", in: dir)
        _ = try Self.kept(repo)
        let good = try dir.read(Self.tablePath)
        // The rows as the test cuts them: "a.txt" then "b/1.png".
        #expect(good.count > Self.countsOffset(expected.header) + 12 + 4 * ManifestTable.rowSize)
        for (name, bytes) in Self.hostile(good, counts: Self.countsOffset(expected.header)) {
            #expect(ManifestTable.decode(bytes, subject: Self.subject(size: json.count), flavor: nil) == nil, "\(name)")
            // A read of the header alone judges the rows by their length and checksum, not their content.
            let rowsAlone = Self.brokenRows.contains(name)
            #expect(
                (ManifestTable.decode(bytes, subject: Self.subject(size: json.count), flavor: nil, files: false) == nil) != rowsAlone,
                "\(name)")
            try dir.write(Self.tablePath, bytes)
            let read = try Self.kept(repo, flavor: "hd")
            #expect(read.header == expected.header && read.table == expected.table, "\(name)")
            #expect(try dir.read(Self.tablePath) == good, "rebuilt after \(name)")
        }
    }

    /// A table describes the manifest beside it by its size, version, bundle and catalog:
    /// another version's table, or one of a manifest of another size, is refused.
    @Test func aTableOfAnotherManifestIsRefused() throws {
        let dir = try TemporaryDirectory()
        let json = Self.flavored().encoded()
        let repo = try Self.repo(keeping: json, in: dir)
        _ = try Self.kept(repo)
        let good = try dir.read(Self.tablePath)
        func decode(version: Int = 1, bundle: String = "B", catalog: String = Self.catalog, size: Int = json.count) -> Bool {
            let subject = ManifestTable.Subject(catalog: catalog, bundle: bundle, version: version, size: Int64(size))
            return ManifestTable.decode(good, subject: subject, flavor: nil) != nil
        }
        #expect(decode() && !decode(version: 2) && !decode(bundle: "C") && !decode(catalog: "com.example.other") && !decode(size: 1))
        // The manifest replaced by another of another size: read, and its table rewritten.
        let other = CompactManifestTests.manifest(version: 1, ["only": (5, nil)])
        try dir.write("repo/manifests/\(Self.catalog)/B-1.json", other.encoded())
        #expect(try Self.kept(repo).table == Self.fromJSON(other.encoded(), flavor: nil, in: dir).table)
        #expect(try dir.read(Self.tablePath) != good)
    }

    /// A table larger than its manifest's JSON could give (twice its size and 4 KiB) is
    /// refused before any count in it is believed, however sound otherwise.
    @Test func aTableLargerThanItsManifestAllowsIsRefused() throws {
        let dir = try TemporaryDirectory()
        let paths = (0..<100).map { "\(String(repeating: "p", count: 60))/\($0)" }
        let json = CompactManifestTests.manifest(version: 1, Dictionary(uniqueKeysWithValues: paths.map { ($0, (1, nil)) })).encoded()
        let read = try Self.fromJSON(json, flavor: nil, in: dir)
        for (size, taken) in [(10, false), (json.count, true)] {
            let bytes = try ManifestTable.encode(read.header, read.table, manifest: Self.subject(size: size))
            #expect(bytes.count > 2 * 10 + 4096)
            #expect((ManifestTable.decode(bytes, subject: Self.subject(size: size), flavor: nil) != nil) == taken, "\(size)")
        }
    }

    /// `verify` and repairs judge by the manifest, whatever the table says.
    @Test func aReadNotTrustingTablesParsesTheManifest() throws {
        let dir = try TemporaryDirectory()
        let json = Self.flavored().encoded()
        let repo = try Self.repo(keeping: json, in: dir)
        _ = try Self.kept(repo)
        try dir.write("repo/manifests/\(Self.catalog)/B-1.json", [UInt8](repeating: UInt8(ascii: " "), count: json.count))
        #expect(throws: ZincError.self) {
            try ManifestTable.read(catalog: Self.catalog, bundle: "B", version: 1, flavor: nil, in: repo, trust: .never)
        }
    }

    /// The header alone (what an LMFO record is weighed by) comes from the table, checked
    /// whole, or, the table failing a check, from the manifest.
    @Test func theHeaderAloneComesFromASoundTable() throws {
        let dir = try TemporaryDirectory()
        let json = Self.flavored().encoded()
        let repo = try Self.repo(keeping: json, in: dir)
        let expected = try Self.fromJSON(json, flavor: nil, in: dir).header
        func header() throws -> ManifestHeader? {
            try ManifestTable.header(catalog: Self.catalog, bundle: "B", version: 1, in: repo, trust: .nameAndSize)
        }
        #expect(try header() == expected)
        _ = try Self.kept(repo)
        let good = try dir.read(Self.tablePath)
        try dir.write("repo/manifests/\(Self.catalog)/B-1.json", [UInt8](repeating: UInt8(ascii: " "), count: json.count))
        #expect(try header() == expected)
        var flipped = good
        flipped[flipped.count - 20] ^= 1
        try dir.write(Self.tablePath, flipped)
        #expect(throws: ZincError.self) { try header() }
        try dir.write("repo/manifests/\(Self.catalog)/B-1.json", json)
        #expect(try header() == expected)
        #expect(try ManifestTable.header(catalog: Self.catalog, bundle: "B", version: 2, in: repo, trust: .nameAndSize) == nil)
    }

    /// In a catalog with trusted keys a table is taken only when it records the SHA-256 of
    /// the kept JSON: a well-formed table of other content (its checksum valid, its
    /// manifest's name and size right, as a catalog without keys would take it) is
    /// refused, and `status` and the spare's update come out as the JSON says.
    @Test func aSignedCatalogTakesOnlyATableOfItsManifest() throws {
        let fixture = try ClientFixture()
        let key = try SigningKey.generate()
        _ = try CatalogSigning(fixture.catalog, signer: CatalogSigner(key: key)).run()
        let signed = try Catalog.open(FileStorage(root: fixture.dir.at("cat")), signer: CatalogSigner(key: key))
        // Version `version`, with `files` of the source replaced or added.
        func publish(_ version: Int, changing files: [String]) throws {
            for file in files { try fixture.dir.write("src/" + file, SampleContent.noise(5000 + version, seed: UInt64(100 + version))) }
            _ = try signed.updateBundle("B", from: fixture.dir.at("src"))
            try DistroUpdate(signed, bundle: "B", distro: "master", to: .number(version)).run()
        }
        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        #expect(try !fixture.sync().failed)
        try publish(2, changing: ["photos/1.jpg", "photos/4.jpg", "lessons/more.json"])
        #expect(try !fixture.sync().failed && fixture.bundleMatchesSource(2))
        let manifests = "repo/manifests/\(Self.catalog)"
        func subject(_ version: Int, hashed: Bool) throws -> ManifestTable.Subject {
            let json = try fixture.dir.read("\(manifests)/B-\(version).json")
            return ManifestTable.Subject(
                catalog: Self.catalog, bundle: "B", version: version, size: Int64(json.count), sha256: hashed ? SHA256.digest(json) : nil)
        }
        // The table of `version` made of the rows of `other`, recording `other`'s SHA-256.
        func forge(_ version: Int, rowsOf other: Int) throws {
            let source = try #require(
                ManifestTable.decode(fixture.dir.read("\(manifests)/B-\(other).table"), subject: subject(other, hashed: true), flavor: nil))
            let header = ManifestHeader(
                catalog: Self.catalog, bundle: "B", version: version, flavors: source.header.flavors, fileCount: source.header.fileCount)
            var named = try subject(version, hashed: false)
            named.sha256 = try subject(other, hashed: true).sha256
            let forged = try ManifestTable.encode(header, #require(source.table), manifest: named)
            #expect(try ManifestTable.decode(forged, subject: subject(version, hashed: false), flavor: nil) != nil)
            try fixture.dir.write("\(manifests)/B-\(version).table", forged)
        }

        // The spare's table lists version 2's files: the update takes the spare's from the
        // JSON, and version 3 holds exactly its files.
        try forge(1, rowsOf: 2)
        try publish(3, changing: ["photos/2.jpg"])
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.outcome == .updated, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(3))

        // The version in use's table lists version 2's files: `status` judges by the JSON.
        try forge(3, rowsOf: 2)
        let status = try #require(try fixture.repo.status().first)
        #expect(status.localVersion == 3 && status.health?.isHealthy == true, "\(String(describing: status.health))")
        #expect(try ManifestTable.decode(fixture.dir.read("\(manifests)/B-3.table"), subject: subject(3, hashed: true), flavor: nil) != nil)
    }

    /// The seeds of the `manifest-table` fuzz target, written from the format's description
    /// by another encoder, are sound tables, so that fuzzing starts inside the format.
    @Test func theFuzzSeedsAreSoundTables() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/manifest-table").path
        for (seed, files) in [("flavored", 2), ("no-flavors", 0), ("empty", 0)] {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: corpus + "/" + seed)))
            #expect(ManifestTable.fileCount(inTable: bytes, catalog: Self.catalog, bundle: "B", version: 1, size: 1000) == files, "\(seed)")
        }
    }
}
