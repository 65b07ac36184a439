import Testing
import Zinc

/// `VersionDiff`'s renames: a content that left one path and arrived at another, paired
/// in path order, never downloaded.
@Suite struct RenameDetectionTests {
    static let a = StoredObject(sha: String(repeating: "a", count: 40), formats: [.raw: 10])
    static let b = StoredObject(sha: String(repeating: "b", count: 40), formats: [.gz: 7])

    func manifest(_ version: Int, _ files: [String: StoredObject]) -> Manifest {
        Manifest(catalog: "c", bundle: "B", version: version, files: files.mapValues { Manifest.Entry(object: $0) })
    }

    @Test func pairsMovedContentsInPathOrderAndLeavesTheRest() throws {
        let old = manifest(1, ["x/1": Self.a, "x/2": Self.a, "gone": Self.b])
        let new = manifest(2, ["y/1": Self.a, "y/2": Self.a, "y/3": Self.a, "new": Self.b])
        let diff = try VersionDiff(from: old, to: new)
        #expect(diff.renamed.map { "\($0.from) -> \($0.to)" } == ["gone -> new", "x/1 -> y/1", "x/2 -> y/2"])
        // A third copy of a held content is an addition, and still costs nothing.
        #expect(diff.added.map(\.path) == ["y/3"])
        #expect(diff.removed.isEmpty && diff.changed.isEmpty)
        #expect(diff.downloadBytes(of: Self.a) == 0 && diff.plan.missing.isEmpty)
        #expect(diff.download == FetchPlan.Transfer(requests: 0, bytes: 0))
        // A gzipped object's content size is not recorded.
        #expect(diff.renamed.first?.size == nil && diff.renamed.last?.size == 10)
    }
}
