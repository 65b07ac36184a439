import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// A manifest read into its compact table: every file a 48-byte row in path order (its
/// ordinal, the line of the version's digest list), the changes between two versions of
/// a flavor found by one merge, and the version's objects packed with its archive length.
@Suite struct CompactManifestTests {
    static func object(_ n: Int, size: Int64, gz: Bool = false) -> StoredObject {
        StoredObject(sha: String(repeating: String(n, radix: 16), count: 40), formats: gz ? [.gz: size, .raw: size * 2] : [.raw: size])
    }

    static func read(_ json: [UInt8], flavor: String? = nil, in dir: TemporaryDirectory) throws -> (
        header: ManifestHeader, table: CompactManifest
    ) {
        let path = try dir.write("m-\(UUID().uuidString).json", json)
        return try CompactManifest.read(StreamedDocument(path: path, name: "B-1.json", gzipped: false), flavor: flavor)
    }

    static func manifest(version: Int, _ files: [String: (Int, [String]?)]) -> Manifest {
        Manifest(
            catalog: "com.example.app", bundle: "B", version: version, flavors: ["hd", "sd"],
            files: files.mapValues { Manifest.Entry(object: object($0.0, size: 1000 + Int64($0.0)), flavors: $0.1) })
    }

    static func rows(_ table: CompactManifest, flavor: String?) -> [ManifestRow] {
        var rows = [ManifestRow]()
        var cursor = CompactManifest.Cursor(table, flavor: flavor)
        while cursor.next() { rows.append(cursor.row) }
        return rows
    }

    /// The distinct objects of `table`'s files of `flavor`, gathered as a sync gathers them.
    static func objects(_ table: CompactManifest, flavor: String?, withSizes: Bool) throws -> VersionObjects {
        try VersionObjects(
            streaming: { try VersionTable.held(table).forEachObject(flavor: flavor, $0) }, files: table.rows.count, withSizes: withSizes)
    }

    @Test func rowsHoldEveryFileInPathOrderAndTheirOrdinalsAreThoseOfAllFiles() throws {
        let dir = try TemporaryDirectory()
        let manifest = Self.manifest(
            version: 4,
            ["b/2.png": (2, ["hd"]), "a.txt": (1, ["hd", "sd"]), "b/1.png": (3, ["sd"]), "c": (1, ["hd", "sd"])])
        let (header, table) = try Self.read(manifest.encoded(), in: dir)
        #expect(CompactManifest.rowSize == 44)
        #expect(header == ManifestHeader(manifest, fileCount: 4))
        #expect(header.catalog == "com.example.app" && header.bundle == "B" && header.version == 4 && header.flavors == ["hd", "sd"])
        let all = Self.rows(table, flavor: nil)
        #expect(all.map(\.path) == ["a.txt", "b/1.png", "b/2.png", "c"] && all.map(\.ordinal) == [0, 1, 2, 3])
        #expect(all.map(\.object) == ["a.txt", "b/1.png", "b/2.png", "c"].map { manifest.files[$0]!.object })
        let hd = Self.rows(table, flavor: "hd")
        #expect(hd.map(\.path) == ["a.txt", "b/2.png", "c"] && hd.map(\.ordinal) == [0, 2, 3])
        #expect(table.ordinals(flavor: "sd") == [0, 1, 3] && table.fileCount(flavor: "sd") == 3 && table.fileCount(flavor: nil) == 4)
        #expect(table.row(2) == hd[1])

        // Read for a flavor, the table lists that flavor's files, as the collection reads them.
        let (_, sd) = try Self.read(manifest.encoded(), flavor: "sd", in: dir)
        #expect(sd.count == 3)
        #expect(Array(sd.digests) == [Self.object(1, size: 0).digest, Self.object(3, size: 0).digest, Self.object(1, size: 0).digest])
    }

    /// Added, removed and changed files, of the flavor only: a file changed outside it is
    /// no change, one that enters it is placed and one that leaves it removed.
    @Test func theChangesBetweenTwoTablesAreThoseOfTheFlavor() throws {
        let dir = try TemporaryDirectory()
        let old = Self.manifest(
            version: 1,
            [
                "same": (1, ["hd", "sd"]), "changed": (2, ["hd", "sd"]), "removed": (3, ["hd"]), "hdOnly": (4, ["hd"]),
                "leaves": (5, ["hd", "sd"]), "enters": (6, ["hd"]),
            ])
        let new = Self.manifest(
            version: 2,
            [
                "same": (1, ["hd", "sd"]), "changed": (7, ["hd", "sd"]), "added": (8, ["sd"]), "hdOnly": (9, ["hd"]),
                "leaves": (5, ["hd"]), "enters": (6, ["hd", "sd"]),
            ])
        let (_, before) = try Self.read(old.encoded(), flavor: "sd", in: dir)
        let (_, after) = try Self.read(new.encoded(), in: dir)
        func changes(_ from: CompactManifest, _ to: CompactManifest, flavor: String?) throws -> ManifestChanges {
            try to.changes(from: { from.forEachPath(flavor: flavor, $0) }, flavor: flavor)
        }
        let digests = { (numbers: [Int]) in numbers.map { Self.object($0, size: 0).digest } }
        let sd = try changes(before, after, flavor: "sd")
        #expect(sd.place.map(\.path) == ["added", "changed", "enters"] && sd.place.map(\.ordinal) == [0, 1, 2])
        #expect(sd.place.map(\.object) == [Self.object(8, size: 1008), Self.object(7, size: 1007), Self.object(6, size: 1006)])
        #expect(sd.remove == ["changed", "leaves"] && sd.leaving == digests([2, 5]))
        let hd = try changes(before, after, flavor: "hd")
        #expect(hd.place.map(\.path) == ["changed", "hdOnly"] && hd.place.map(\.ordinal) == [1, 3])
        #expect(hd.remove == ["changed", "hdOnly", "removed"] && hd.leaving == digests([2, 4, 3]))
        let all = try changes(before, after, flavor: nil)
        #expect(all.place.map(\.path) == ["added", "changed", "hdOnly"] && all.remove == ["changed", "hdOnly", "removed"])
        #expect(try changes(after, after, flavor: nil) == ManifestChanges(place: [], remove: [], leaving: []))
        // From no files, every file is placed; to none, every file removed.
        let none = try Self.read(Self.manifest(version: 3, [:]).encoded(), in: dir).table
        #expect(try changes(none, after, flavor: "hd").place.map(\.path) == ["changed", "enters", "hdOnly", "leaves", "same"])
        #expect(
            try changes(after, none, flavor: "sd")
                == ManifestChanges(place: [], remove: ["added", "changed", "enters", "same"], leaving: digests([8, 7, 6, 1])))
    }

    /// Each object once, in digest order, however many files hold it; the archive's
    /// length counts each once (preferred format) with the end blocks, as the catalog's
    /// archive has it.
    @Test func theVersionsObjectsArePackedWithTheArchiveLength() throws {
        let dir = try TemporaryDirectory()
        var manifest = Self.manifest(version: 1, ["a": (3, ["hd"]), "b": (1, ["hd", "sd"]), "c": (3, ["sd"]), "d": (2, ["sd"])])
        manifest.files["e"] = Manifest.Entry(object: Self.object(5, size: 700, gz: true), flavors: ["hd"])
        let (_, table) = try Self.read(manifest.encoded(), in: dir)
        let all = try Self.objects(table, flavor: nil, withSizes: true)
        let expected = [1, 2, 3].map { Self.object($0, size: 1000 + Int64($0)) } + [Self.object(5, size: 700, gz: true)]
        #expect(all.count == 4 && Array(all.digests) == expected.map(\.digest) && Array(all.objects) == expected)
        #expect(all.archiveLength == FetchPlan.ArchiveShape(objects: expected, fileCount: 5).length)
        #expect(all.archiveLength == 1024 + 4 * 1536)
        #expect(all.contains(Self.object(5, size: 0).digest) && !all.contains(Self.object(4, size: 0).digest))
        #expect(all.size(of: Self.object(5, size: 0).digest) == 700 && all.size(of: Self.object(4, size: 0).digest) == nil)
        let hd = try Self.objects(table, flavor: "hd", withSizes: false)
        #expect(Array(hd.digests) == [1, 3, 5].map { Self.object($0, size: 0).digest } && hd.objects.isEmpty)
        #expect(hd.size(of: Self.object(1, size: 0).digest) == nil && hd.contains(Self.object(1, size: 0).digest))
    }

    /// A table read from JSON holds every file, its path's bytes once, in path order.
    @Test func aTableReadFromJSONHoldsEveryFileInPathOrder() throws {
        let dir = try TemporaryDirectory()
        let files = Dictionary(uniqueKeysWithValues: (0..<1000).map { ("folder/file-\($0).png", ($0 % 7 + 1, ["hd"])) })
        let (header, table) = try Self.read(Self.manifest(version: 1, files).encoded(), in: dir)
        #expect(header.fileCount == 1000 && table.rows.count == 1000)
        #expect(table.bytes.count == files.keys.reduce(0) { $0 + $1.utf8.count })
        #expect(Self.rows(table, flavor: nil).map(\.path) == files.keys.sorted())
    }

    /// A manifest zinc never writes: files out of path order are sorted (their ordinals
    /// are those of path order); a path listed twice, an unsafe path or a bad sha is
    /// refused, naming the file.
    @Test func anUnsortedManifestIsSortedAndAHostileOneRefused() throws {
        let dir = try TemporaryDirectory()
        func json(_ files: [(String, String)]) -> [UInt8] {
            let entries = files.map { #""\#($0.0)":{"formats":{"raw":{"size":10}},"sha":"\#($0.1)"}"# }
            return Array(#"{"bundle":"B","catalog":"com.example.app","files":{\#(entries.joined(separator: ","))},"version":1}"#.utf8)
        }
        let a = String(repeating: "a", count: 40)
        let b = String(repeating: "b", count: 40)
        let (header, table) = try Self.read(json([("z", a), ("m/x", b), ("a", a)]), in: dir)
        #expect(header.fileCount == 3 && header.flavors == [])
        #expect(Self.rows(table, flavor: nil).map(\.path) == ["a", "m/x", "z"] && table.row(1).object.sha == b)
        func refusal(_ files: [(String, String)]) -> String {
            do {
                _ = try Self.read(json(files), in: dir)
                return "read"
            } catch { return "\(error)" }
        }
        #expect(refusal([("x", a), ("y", b), ("x", b)]).contains("file 'x' is listed twice"))
        #expect(refusal([("../x", a)]).contains("B-1.json"))
        #expect(refusal([("x", "nothex")]).contains("B-1.json"))
    }
}
