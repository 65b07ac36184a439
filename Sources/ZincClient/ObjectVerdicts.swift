import Zinc

/// What a `StoreCheck` judged, by object: a 24-byte entry an object (its digest and
/// verdict) in one array sorted by digest, searched by halving, with the latest verdicts
/// in a small dictionary merged into it once it holds `batch` of them (verdicts given in
/// digest order are appended to it directly). At 100,000 objects that is 2.3 MB, where a
/// dictionary of them all took 6.6 MB (a 24-byte entry and its verdict in 262,144 buckets).
struct ObjectVerdicts {
    private struct Entry {
        let digest: SHA1.Digest
        var verdict: StoreCheck.Verdict
    }

    /// The dictionary's size when it is merged: small beside the array, few merges.
    private static let batch = 4096

    /// Sorted by digest, each digest once, none of them in `recent`.
    private var sorted = [Entry]()
    private var recent = [SHA1.Digest: StoreCheck.Verdict]()

    var isEmpty: Bool { sorted.isEmpty && recent.isEmpty }

    subscript(_ digest: SHA1.Digest) -> StoreCheck.Verdict? {
        get {
            if let verdict = recent[digest] { return verdict }
            let i = index(of: digest)
            return i < sorted.count && sorted[i].digest == digest ? sorted[i].verdict : nil
        }
        set {
            guard let newValue else { preconditionFailure("a verdict is replaced, never removed") }
            // Judged in digest order (a version's objects, as a first sync judges them):
            // appended, with no dictionary and no merge.
            if recent.isEmpty, sorted.last.map({ $0.digest < digest }) ?? true {
                sorted.append(Entry(digest: digest, verdict: newValue))
                return
            }
            let i = index(of: digest)
            if i < sorted.count && sorted[i].digest == digest {
                sorted[i].verdict = newValue
                return
            }
            recent[digest] = newValue
            if recent.count >= Self.batch { merge() }
        }
    }

    private func index(of digest: SHA1.Digest) -> Int { sorted.partitionPoint { $0.digest < digest } }

    /// Makes room for `count` more verdicts than it holds, at once, for objects about to
    /// be judged: no copy as the array grows, nor room left over.
    mutating func reserve(_ count: Int) { sorted.reserveCapacity(sorted.count + recent.count + count) }

    /// Moves the dictionary's verdicts into the sorted array, merging from its end in
    /// place: no second array of every verdict. Before `inOrder`.
    mutating func merge() {
        let added = recent.map { Entry(digest: $0.key, verdict: $0.value) }.sorted { $0.digest < $1.digest }
        recent.removeAll(keepingCapacity: true)
        var (write, old, new) = (sorted.count + added.count, sorted.count, added.count)
        // Grown by an eighth, not doubled (97,000 verdicts held 3.1 MB of capacity for
        // 2.3 MB): still few copies, however many objects are judged.
        let needed = sorted.count + added.count
        if needed > sorted.capacity { sorted.reserveCapacity(max(needed, sorted.count + sorted.count / 8)) }
        sorted.append(contentsOf: added)  // room; every slot is written again below
        while new > 0 {
            write -= 1
            if old > 0 && sorted[old - 1].digest > added[new - 1].digest {
                old -= 1
                sorted[write] = sorted[old]
            } else {
                new -= 1
                sorted[write] = added[new]
            }
        }
    }

    /// Every verdict, in digest order, once `merge` has left none aside.
    var inOrder: some Sequence<(digest: SHA1.Digest, verdict: StoreCheck.Verdict)> {
        precondition(recent.isEmpty, "verdicts are listed merged")
        return sorted.lazy.map { ($0.digest, $0.verdict) }
    }
}
