import Zinc

/// What a `StoreCheck` judged, by object: a 24-byte entry an object (its digest and
/// verdict) in one array sorted by digest, searched by halving, with the latest verdicts
/// in a small dictionary merged into it once it holds `batch` of them (verdicts given in
/// digest order are appended to it directly). At 100,000 objects that is 2.3 MB, where a
/// dictionary of them all took 6.6 MB (a 24-byte entry and its verdict in 262,144 buckets).
///
/// The objects of a version a thorough check judges whole (`judgeWhole`) have their
/// verdicts in 2 bits each instead, by their place in the version's list, which the
/// sync holds anyway: a repair at 1,000,000 objects holds 240 KB of them, not 23 MB.
struct ObjectVerdicts {
    private struct Entry {
        let digest: SHA1.Digest
        var verdict: StoreCheck.Verdict
    }

    /// A version's objects and their verdicts, four to a byte: 0 for none yet, else
    /// `code(of:)`'s.
    private struct Whole {
        let objects: VersionObjects
        var codes: [UInt8]
        var judged = 0

        init(_ objects: VersionObjects) {
            self.objects = objects
            codes = [UInt8](repeating: 0, count: (objects.count + 3) / 4)
        }

        subscript(_ i: Int) -> StoreCheck.Verdict? {
            get { Self.verdict(of: codes[i / 4] >> (i % 4 * 2) & 3) }
            set {
                guard let newValue else { preconditionFailure("a verdict is replaced, never removed") }
                if self[i] == nil { judged += 1 }
                let shift = i % 4 * 2
                codes[i / 4] = codes[i / 4] & ~(3 << shift) | Self.code(of: newValue) << shift
            }
        }

        var inOrder: some Sequence<(digest: SHA1.Digest, verdict: StoreCheck.Verdict)> {
            (0..<objects.count).lazy.compactMap { i in self[i].map { (objects.digest(i), $0) } }
        }

        private static func code(of verdict: StoreCheck.Verdict) -> UInt8 {
            switch verdict {
            case .sound: 1
            case .missing: 2
            case .damaged: 3
            }
        }

        private static func verdict(of code: UInt8) -> StoreCheck.Verdict? {
            switch code {
            case 1: .sound
            case 2: .missing
            case 3: .damaged
            default: nil
            }
        }
    }

    /// The dictionary's size when it is merged: small beside the array, few merges.
    private static let batch = 4096

    /// Sorted by digest, each digest once, none of them in `recent`.
    private var sorted = [Entry]()
    private var recent = [SHA1.Digest: StoreCheck.Verdict]()
    /// The versions judged whole: an object of one of them has its verdict in the first
    /// that holds it, and nowhere else.
    private var wholes = [Whole]()

    var isEmpty: Bool { sorted.isEmpty && recent.isEmpty && wholes.allSatisfy { $0.judged == 0 } }

    /// The version whole that holds `digest`'s verdict, and the object's place in it.
    private func place(of digest: SHA1.Digest) -> (whole: Int, index: Int)? {
        for w in wholes.indices { if let i = wholes[w].objects.index(of: digest) { return (w, i) } }
        return nil
    }

    subscript(_ digest: SHA1.Digest) -> StoreCheck.Verdict? {
        get {
            if let (w, i) = place(of: digest) { return wholes[w][i] }
            if let verdict = recent[digest] { return verdict }
            let i = index(of: digest)
            return i < sorted.count && sorted[i].digest == digest ? sorted[i].verdict : nil
        }
        set {
            guard let newValue else { preconditionFailure("a verdict is replaced, never removed") }
            if let (w, i) = place(of: digest) {
                wholes[w][i] = newValue
                return
            }
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

    /// Keeps the verdicts on `objects` (a version's, sorted) 2 bits each from now on,
    /// those given already moved there, unless a version judged whole before holds them.
    mutating func judgeWhole(_ objects: VersionObjects) {
        merge()
        var whole = Whole(objects)
        let earlier = wholes
        sorted.removeAll { entry in
            guard !earlier.contains(where: { $0.objects.contains(entry.digest) }), let i = objects.index(of: entry.digest) else {
                return false
            }
            whole[i] = entry.verdict
            return true
        }
        wholes.append(whole)
    }

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

    /// Every verdict, in digest order, once `merge` has left none aside: the sorted array
    /// and each version judged whole, merged as they are read.
    var inOrder: some Sequence<(digest: SHA1.Digest, verdict: StoreCheck.Verdict)> {
        precondition(recent.isEmpty, "verdicts are listed merged")
        typealias Listed = (digest: SHA1.Digest, verdict: StoreCheck.Verdict)
        var sources = [AnyIterator(sorted.lazy.map { Listed($0.digest, $0.verdict) }.makeIterator())]
        for whole in wholes { sources.append(AnyIterator(whole.inOrder.makeIterator())) }
        let heads = sources.indices.map { sources[$0].next() }
        return sequence(state: (sources: sources, heads: heads)) { state -> Listed? in
            var first: Int?
            for k in state.heads.indices {
                guard let head = state.heads[k] else { continue }
                if let current = first, let lowest = state.heads[current], lowest.digest <= head.digest { continue }
                first = k
            }
            guard let first else { return nil }
            defer { state.heads[first] = state.sources[first].next() }
            return state.heads[first]
        }
    }
}
