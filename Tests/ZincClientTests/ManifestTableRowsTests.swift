import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// A kept table's files read as a stream (`ManifestTableRows`), as an update compares its
/// spare with the new version (`SpareFiles`): the rows of each flavor, in path order, as
/// the table read whole gives them; a table failing a check, or whose paths are not laid
/// out in row order, is refused (before any row, or at the row that breaks a rule), and
/// the spare's changes then come from the manifest, the same as from a sound table.
@Suite struct ManifestTableRowsTests {
    typealias Tables = ManifestTableTests

    static func tracked(flavor: String?) -> RepoState.TrackedBundle {
        RepoState.TrackedBundle(catalog: Tables.catalog, bundle: "B", distro: "master", flavor: flavor)
    }

    /// Each file `forEach` gives, its path made a string.
    static func streamed(_ rows: ManifestTableRows, flavor: String?) throws -> [(String, SHA1.Digest)] {
        var files = [(String, SHA1.Digest)]()
        try rows.forEach(flavor: flavor) { files.append((String(decoding: $0, as: UTF8.self), $1)) }
        return files
    }

    static func held(_ table: CompactManifest, flavor: String?) -> [(String, SHA1.Digest)] {
        var files = [(String, SHA1.Digest)]()
        table.forEachPath(flavor: flavor) { files.append((String(decoding: $0, as: UTF8.self), $1)) }
        return files
    }

    /// The version the spare is brought to: one file changed, one added, one removed.
    static func newer(in dir: TemporaryDirectory) throws -> CompactManifest {
        let manifest = CompactManifestTests.manifest(
            version: 2, ["b/2.png": (2, ["hd"]), "a.txt": (7, ["hd", "sd"]), "b/0.png": (3, ["sd", "hd"]), "d": (1, nil)])
        return try Tables.fromJSON(manifest.encoded(), flavor: nil, in: dir).table
    }

    @Test func aSoundTableGivesEveryFileOfTheFlavorInPathOrder() throws {
        let dir = try TemporaryDirectory()
        let json = Tables.flavored().encoded()
        let repo = try Tables.repo(keeping: json, in: dir)
        #expect(try ManifestTableRows(Self.tracked(flavor: nil), version: 1, in: repo, trust: .nameAndSize) == nil)
        let table = try Tables.kept(repo).table
        let rows = try #require(try ManifestTableRows(Self.tracked(flavor: nil), version: 1, in: repo, trust: .nameAndSize))
        for flavor in [nil, "hd", "sd", "xx"] {
            let files = try Self.streamed(rows, flavor: flavor)
            let expected = Self.held(table, flavor: flavor)
            #expect(files.map(\.0) == expected.map(\.0) && files.map(\.1) == expected.map(\.1), "\(flavor ?? "none")")
        }
        #expect(try Self.streamed(rows, flavor: "hd").map(\.0) == ["a.txt", "b/2.png"])
        // Not taken where tables are not trusted, nor for another version.
        #expect(try ManifestTableRows(Self.tracked(flavor: nil), version: 1, in: repo, trust: .never) == nil)
        #expect(try ManifestTableRows(Self.tracked(flavor: nil), version: 2, in: repo, trust: .nameAndSize) == nil)

        let new = try Self.newer(in: dir)
        let changes = try #require(
            SpareFiles(Self.tracked(flavor: "hd"), version: 1, in: repo, trust: .nameAndSize)?.changes(to: .held(new)))
        #expect(changes.place.map(\.path) == ["a.txt", "b/0.png"] && changes.remove == ["a.txt"])
        #expect(changes.leaving == [CompactManifestTests.object(1, size: 0).digest])
        #expect(try changes == new.changes(from: { table.forEachPath(flavor: "hd", $0) }, flavor: "hd"))
    }

    /// Every hostile table of `ManifestTableTests` is refused, whole before any row or at
    /// the row that breaks a rule; the spare's changes come from the manifest instead.
    @Test func aTableFailingAnyCheckIsRefusedAndTheChangesComeFromTheManifest() throws {
        let dir = try TemporaryDirectory()
        let json = Tables.flavored().encoded()
        let repo = try Tables.repo(keeping: json, in: dir)
        let table = try Tables.kept(repo).table
        let good = try dir.read(Tables.tablePath)
        let new = try Self.newer(in: dir)
        let expected = try new.changes(from: { table.forEachPath(flavor: "sd", $0) }, flavor: "sd")
        let counts = Tables.countsOffset(try Tables.kept(repo).header)
        for (name, bytes) in Tables.hostile(good, counts: counts) {
            try dir.write(Tables.tablePath, bytes)
            let rowsAlone = Tables.brokenRows.contains(name)
            let rows = try ManifestTableRows(Self.tracked(flavor: nil), version: 1, in: repo, trust: .nameAndSize)
            #expect((rows != nil) == rowsAlone, "\(name)")
            if let rows {
                #expect(throws: ZincError.self, "\(name)") { try rows.forEach(flavor: nil) { _, _ in } }
            }
            try dir.write(Tables.tablePath, bytes)
            let spare = try #require(SpareFiles(Self.tracked(flavor: "sd"), version: 1, in: repo, trust: .nameAndSize), "\(name)")
            #expect(spare.changes(to: .held(new)) == expected, "\(name)")
        }
        // With neither a table nor a manifest to read, there is no spare to bring along.
        try dir.write(Tables.tablePath, Tables.hostile(good, counts: counts)[0].1)
        try FileManager.default.removeItem(atPath: dir.at("repo/manifests/\(Tables.catalog)/B-1.json"))
        #expect(SpareFiles(Self.tracked(flavor: "sd"), version: 1, in: repo, trust: .nameAndSize) == nil)
    }

    /// A manifest whose files are not in path order gives a table whose paths are laid out
    /// in another order than its rows: the stream refuses it at its first row, and the
    /// spare's changes come from the table read whole.
    @Test func pathsLaidOutInAnotherOrderAreReadWhole() throws {
        let dir = try TemporaryDirectory()
        let repo = try Tables.repo(keeping: Tables.unsorted, in: dir)
        let table = try Tables.kept(repo).table
        let rows = try #require(try ManifestTableRows(Self.tracked(flavor: nil), version: 1, in: repo, trust: .nameAndSize))
        #expect {
            try rows.forEach(flavor: nil) { _, _ in }
        } throws: { error in
            "\(error)".contains("B-1.table") && "\(error)".contains("row 0 is not a file's row in path order")
        }
        let new = try Self.newer(in: dir)
        let spare = try #require(SpareFiles(Self.tracked(flavor: nil), version: 1, in: repo, trust: .nameAndSize))
        let changes = try #require(spare.changes(to: .held(new)))
        #expect(try changes == new.changes(from: { table.forEachPath(flavor: nil, $0) }, flavor: nil))
        #expect(changes.remove == ["m/x", "z"] && changes.place.count == 4)
    }
}
