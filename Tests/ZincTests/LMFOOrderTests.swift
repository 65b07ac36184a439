import Testing
import Zinc

@Suite struct LMFOOrderTests {
    /// The talk's example: v1 {7199f, 08b34, 37dc6, ae782}, v2 drops 37dc6 and adds
    /// 36e31, v3 drops ae782 and adds aeba7.
    let history: [Int: Set<String>] = [
        1: ["7199f", "08b34", "37dc6", "ae782"],
        2: ["36e31", "7199f", "08b34", "ae782"],
        3: ["aeba7", "36e31", "7199f", "08b34"],
    ]

    func order(_ version: Int, earlier: [Int]) -> [String] {
        LMFOOrder.order(objects: history[version]!, version: version, earlierVersions: earlier) { history[$0]! }
    }

    @Test func newObjectsComeFirstThenOlderOnesByIntroduction() {
        #expect(order(1, earlier: []) == ["08b34", "37dc6", "7199f", "ae782"])
        #expect(order(2, earlier: [1]) == ["36e31", "08b34", "7199f", "ae782"])
        #expect(order(3, earlier: [1, 2]) == ["aeba7", "36e31", "08b34", "7199f"])
    }

    @Test func aDeletedVersionDoesNotBreakContinuity() {
        // With version 2 deleted, 36e31 is new relative to version 1.
        #expect(order(3, earlier: [1]) == ["36e31", "aeba7", "08b34", "7199f"])
    }

    @Test func anObjectThatCameBackCountsFromItsReturn() {
        let h: [Int: Set<String>] = [1: ["a", "b"], 2: ["b"], 3: ["a", "b"]]
        let order = LMFOOrder.order(objects: h[3]!, version: 3, earlierVersions: [1, 2]) { h[$0]! }
        #expect(order == ["a", "b"])
    }

    @Test func readsOnlyAsFarBackAsNeeded() {
        nonisolated(unsafe) var read = [Int]()
        let h: [Int: Set<String>] = [1: ["x"], 2: ["y"], 3: ["y"], 4: ["z"]]
        _ = LMFOOrder.order(objects: ["z"], version: 5, earlierVersions: [1, 2, 3, 4]) {
            read.append($0); return h[$0]!
        }
        #expect(read == [4, 3])
    }
}
