import Testing
import Zinc

@testable import ZincClient

/// The check's verdicts, packed: every verdict given is the one read back, the latest
/// for an object judged twice, across the merges of the recent ones into the sorted
/// array (every 4,096), and listed once each in digest order.
@Suite struct ObjectVerdictsTests {
    @Test func verdictsSurviveTheMergesAndAreListedInDigestOrder() {
        let digests = (0..<10_000).map { SHA1.digest(Array("object \($0)".utf8)) }
        let kinds: [StoreCheck.Verdict] = [.sound, .missing, .damaged]
        var verdicts = ObjectVerdicts()
        #expect(verdicts.isEmpty)
        for (i, digest) in digests.enumerated() { verdicts[digest] = kinds[i % 3] }
        // Judged again, whether merged already or still recent.
        for i in stride(from: 0, to: digests.count, by: 7) { verdicts[digests[i]] = .damaged }
        var expected = [SHA1.Digest: StoreCheck.Verdict]()
        for (i, digest) in digests.enumerated() { expected[digest] = i % 7 == 0 ? .damaged : kinds[i % 3] }
        #expect(digests.allSatisfy { verdicts[$0] == expected[$0] })
        #expect(verdicts[SHA1.digest(Array("never judged".utf8))] == nil)
        verdicts.merge()
        let listed = Array(verdicts.inOrder)
        #expect(listed.map(\.digest) == digests.sorted())
        #expect(listed.allSatisfy { expected[$0.digest] == $0.verdict })
    }

    /// Verdicts given in digest order (a version's objects, as a first sync judges them)
    /// and then in any order, some of them again: each reads back as last given, and the
    /// listing holds each digest once, in order.
    @Test func verdictsInDigestOrderThenInAnyOrderReadBackAsGiven() throws {
        let (lowest, highest) = (
            try #require(SHA1.Digest(hex: String(repeating: "0", count: 40))),
            try #require(SHA1.Digest(hex: String(repeating: "f", count: 40)))
        )
        let digests = (0..<9_000).map { SHA1.digest(Array("object \($0)".utf8)) }
        let (ordered, unordered) = (digests[..<6_000].sorted(), Array(digests[6_000...]))
        var verdicts = ObjectVerdicts()
        for digest in ordered + [highest] { verdicts[digest] = .missing }
        for digest in unordered + [lowest] { verdicts[digest] = .damaged }
        // Some of the ordered ones again, as a sync vouches for them once fetched.
        for digest in ordered[..<100] + [highest] { verdicts[digest] = .sound }
        var expected = [SHA1.Digest: StoreCheck.Verdict]()
        for digest in ordered { expected[digest] = .missing }
        for digest in unordered + [lowest] { expected[digest] = .damaged }
        for digest in ordered[..<100] + [highest] { expected[digest] = .sound }
        let all = digests + [lowest, highest]
        #expect(all.allSatisfy { verdicts[$0] == expected[$0] })
        verdicts.merge()
        let listed = Array(verdicts.inOrder)
        #expect(listed.map(\.digest) == all.sorted())
        #expect(listed.allSatisfy { expected[$0.digest] == $0.verdict })
    }

    /// Versions judged whole keep their objects' verdicts by place: those given before move
    /// there, an object two versions share has one verdict, and the listing merges them all
    /// with the others, each digest once, in order.
    @Test func verdictsOfVersionsJudgedWholeReadBackAndListInOrder() throws {
        let digests = (0..<3_000).map { SHA1.digest(Array("object \($0)".utf8)) }
        let kinds: [StoreCheck.Verdict] = [.sound, .missing, .damaged]
        func version(_ range: Range<Int>) throws -> VersionObjects {
            let objects = digests[range].map { StoredObject(digest: $0, sizes: .init(gz: -1, raw: 1)) }
            return try VersionObjects(streaming: { objects.forEach($0) }, files: objects.count, withSizes: false)
        }
        var verdicts = ObjectVerdicts()
        var expected = [SHA1.Digest: StoreCheck.Verdict]()
        func give(_ i: Int, _ verdict: StoreCheck.Verdict) {
            verdicts[digests[i]] = verdict
            expected[digests[i]] = verdict
        }
        // Before any version: some that the first will hold, some that none will.
        for i in stride(from: 0, to: 3_000, by: 5) { give(i, .damaged) }
        verdicts.judgeWhole(try version(0..<2_000))
        #expect(!verdicts.isEmpty)
        verdicts.judgeWhole(try version(1_000..<2_500))
        for i in 0..<3_000 where i % 3 != 0 { give(i, kinds[i % 3]) }
        // Judged again.
        for i in stride(from: 1, to: 3_000, by: 11) { give(i, .sound) }
        #expect(digests.allSatisfy { verdicts[$0] == expected[$0] })
        verdicts.merge()
        let listed = Array(verdicts.inOrder)
        #expect(listed.map(\.digest) == expected.keys.sorted())
        #expect(listed.allSatisfy { expected[$0.digest] == $0.verdict })
        // A version judged whole with no verdict given yet holds none.
        var fresh = ObjectVerdicts()
        fresh.judgeWhole(try version(0..<10))
        #expect(fresh.isEmpty && Array(fresh.inOrder).isEmpty && fresh[digests[0]] == nil)
    }
}
