import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// A new version's table written as its manifest streams in (`ManifestTableWriter`), what
/// an update reads it by (`VersionTable`): the same bytes as the table of the manifest
/// held whole, its rows streamed from the file giving the same changes and the same
/// packed objects as the table held; a manifest out of path order held and sorted as
/// before, a file listed twice refused, and a table broken after it was written refused
/// at its first broken row and, read whole, rebuilt from its manifest.
@Suite struct ManifestTableWriterTests {
    typealias Tables = ManifestTableTests

    /// Keeps `json` as version 1's manifest and reads it as an update does.
    static func kept(_ json: [UInt8], in dir: TemporaryDirectory) throws -> (repo: Repo, header: ManifestHeader, files: VersionTable) {
        let repo = try Tables.repo(keeping: json, in: dir)
        let kept = try #require(
            try VersionTable.kept(catalog: Tables.catalog, bundle: "B", version: 1, in: repo, trust: .nameAndSize, hashing: false))
        return (repo, kept.header, kept.files)
    }

    /// A version of many files over several folders, some sharing an object, with flavors.
    static func many() -> Manifest {
        let files = Dictionary(
            uniqueKeysWithValues: (0..<3000).map { n in
                ("f\(n % 7)/\(String(repeating: "x", count: n % 13))file-\(n).png", (n % 11 + 1, n % 3 == 0 ? ["hd"] : ["hd", "sd"]))
            })
        return CompactManifestTests.manifest(version: 1, files)
    }

    @Test func aManifestInPathOrderGivesTheTableOfTheManifestHeldWhole() throws {
        let dir = try TemporaryDirectory()
        for manifest in [Self.many(), Tables.flavored()] {
            let json = manifest.encoded()
            let (repo, header, files) = try Self.kept(json, in: dir)
            guard case .file(let path, let subject, let layout) = files else {
                Issue.record("a manifest in path order is not held")
                return
            }
            let held = try Tables.fromJSON(json, flavor: nil, in: dir)
            #expect(header == held.header && layout.header == held.header)
            #expect(try dir.read(Tables.tablePath) == ManifestTable.encode(held.header, held.table, manifest: subject))
            #expect(path == dir.at(Tables.tablePath) && layout.flavorSets == held.table.flavorSets)
            // Its rows streamed are the rows held, of each flavor, with their ordinals.
            for flavor in [nil, "hd", "sd", "xx"] {
                var rows = try files.rows(flavor: flavor)
                var streamed = [ManifestRow]()
                while try rows.next() { streamed.append(rows.row) }
                #expect(streamed == CompactManifestTests.rows(held.table, flavor: flavor), "\(flavor ?? "none")")
                #expect(try files.fileCount(flavor: flavor) == held.table.fileCount(flavor: flavor))
                // The objects gathered from the stream are those of the table held.
                for withSizes in [false, true] {
                    let objects = try VersionObjects(
                        streaming: { try files.forEachObject(flavor: flavor, $0) }, files: files.rowCount, withSizes: withSizes)
                    let expected = try CompactManifestTests.objects(held.table, flavor: flavor, withSizes: withSizes)
                    #expect(Array(objects.digests) == Array(expected.digests) && Array(objects.objects) == Array(expected.objects))
                    #expect(objects.archiveLength == expected.archiveLength && objects.count == expected.count)
                }
            }
            // Read again, the table is taken as it is.
            let again = try #require(
                try VersionTable.kept(catalog: Tables.catalog, bundle: "B", version: 1, in: repo, trust: .nameAndSize, hashing: false))
            guard case .file = again.files else {
                Issue.record("a table read again is not streamed")
                return
            }
            var rows = try again.files.rows(flavor: nil)
            var streamed = [ManifestRow]()
            while try rows.next() { streamed.append(rows.row) }
            #expect(streamed == CompactManifestTests.rows(held.table, flavor: nil))
            try FileManager.default.removeItem(atPath: dir.at("repo"))
        }
    }

    /// The spare's changes to a version streamed from its table file are those to the
    /// version held.
    @Test func theChangesToATableFileAreThoseToTheTableHeld() throws {
        let dir = try TemporaryDirectory()
        let repo = try Tables.repo(keeping: Tables.flavored().encoded(), in: dir)
        _ = try Tables.kept(repo)
        let newer = CompactManifestTests.manifest(
            version: 2, ["b/2.png": (2, ["hd"]), "a.txt": (7, ["hd", "sd"]), "b/0.png": (3, ["sd", "hd"]), "d": (1, nil)])
        try dir.write("repo/manifests/\(Tables.catalog)/B-2.json", newer.encoded())
        let files = try #require(
            try VersionTable.kept(catalog: Tables.catalog, bundle: "B", version: 2, in: repo, trust: .nameAndSize, hashing: false)
        ).files
        let held = try Tables.fromJSON(newer.encoded(), flavor: nil, in: dir).table
        for flavor in [nil, "hd", "sd"] {
            let spare = try #require(SpareFiles(ManifestTableRowsTests.tracked(flavor: flavor), version: 1, in: repo, trust: .nameAndSize))
            let changes = try #require(spare.changes(to: files))
            #expect(changes == spare.changes(to: .held(held)), "\(flavor ?? "none")")
        }
        let hd = try #require(
            SpareFiles(ManifestTableRowsTests.tracked(flavor: "hd"), version: 1, in: repo, trust: .nameAndSize)?.changes(to: files))
        #expect(hd.place.map(\.path) == ["a.txt", "b/0.png"] && hd.place.map(\.ordinal) == [0, 1] && hd.remove == ["a.txt"])
    }

    /// A manifest out of path order leaves no table from the stream: it is held, sorted,
    /// and its table written from it.
    @Test func aManifestOutOfPathOrderIsHeldSorted() throws {
        let dir = try TemporaryDirectory()
        let (_, header, files) = try Self.kept(Tables.unsorted, in: dir)
        guard case .held(let table) = files else {
            Issue.record("a manifest out of path order is streamed")
            return
        }
        #expect(header.fileCount == 2 && CompactManifestTests.rows(table, flavor: nil).map(\.path) == ["m/x", "z"])
        #expect(try Tables.kept(Repo(at: dir.at("repo"))).table == table)
    }

    /// A file listed twice is refused as a manifest read whole refuses it.
    @Test func aFileListedTwiceIsRefused() throws {
        let dir = try TemporaryDirectory()
        let entry = #"{"formats":{"raw":{"size":1}},"sha":"\#(String(repeating: "a", count: 40))"}"#
        let json = Array(#"{"bundle":"B","catalog":"com.example.app","files":{"a":\#(entry),"a":\#(entry)},"version":1}"#.utf8)
        let repo = try Tables.repo(keeping: json, in: dir)
        #expect {
            try VersionTable.kept(catalog: Tables.catalog, bundle: "B", version: 1, in: repo, trust: .nameAndSize, hashing: false)
        } throws: { "\($0)".contains("file 'a' is listed twice") }
        #expect(!FileManager.default.fileExists(atPath: dir.at(Tables.tablePath)))
    }

    /// A table changed after it was written is refused at its first broken row.
    @Test func aTableBrokenAfterItWasWrittenIsRefusedAtItsFirstBrokenRow() throws {
        let dir = try TemporaryDirectory()
        let json = Tables.flavored().encoded()
        let (_, _, files) = try Self.kept(json, in: dir)
        guard case .file(_, _, let layout) = files else {
            Issue.record("a manifest in path order is not held")
            return
        }
        let sound = try dir.read(Tables.tablePath)
        var bytes = sound
        // The first row's path made absolute.
        bytes[layout.pathsAt] = UInt8(ascii: "/")
        try dir.write(Tables.tablePath, bytes)
        var rows = try files.rows(flavor: nil)
        #expect { _ = try rows.next() } throws: { "\($0)".contains("the path of row 0 is not safe") }
    }
}
