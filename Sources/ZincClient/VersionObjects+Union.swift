import Zinc

extension VersionObjects {
    /// The digests of several versions' objects (each sorted), in order, each once.
    struct Union {
        private let versions: [VersionObjects]
        /// The index of each version's next digest.
        private var next: [Int]
        /// The least digest not given yet.
        private(set) var peek: SHA1.Digest?

        init(_ versions: [VersionObjects]) {
            self.versions = versions
            next = versions.map { _ in 0 }
            peek = Self.least(versions, at: next)
        }

        /// Steps past `peek`, in every version that holds it.
        mutating func advance() {
            guard let digest = peek else { return }
            for v in versions.indices where next[v] < versions[v].count && versions[v].digest(next[v]) == digest { next[v] += 1 }
            peek = Self.least(versions, at: next)
        }

        private static func least(_ versions: [VersionObjects], at next: [Int]) -> SHA1.Digest? {
            var least: SHA1.Digest?
            for v in versions.indices where next[v] < versions[v].count {
                let digest = versions[v].digest(next[v])
                if least.map({ digest < $0 }) ?? true { least = digest }
            }
            return least
        }
    }
}
