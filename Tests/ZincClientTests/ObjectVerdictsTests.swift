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
}
