/// What a user most likely meant by a name that names nothing: the commands, options,
/// bundles, distributions and catalogs a mistyped word is matched against.
package enum Spelling {
    /// The candidate nearest to `word` when it is near enough to be what the user meant
    /// (at most one typo per three characters, and never the whole word). Of two as near, the one sharing the
    /// longer beginning with `word` wins (`--sorce` is `--source`, not `--force`: typos
    /// fall in a word's middle more than at its start), then the earlier one.
    package static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        var best: (name: String, distance: Int, prefix: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(word, candidate)
            let prefix = zip(word, candidate).prefix { $0 == $1 }.count
            if best.map({ distance < $0.distance || (distance == $0.distance && prefix > $0.prefix) }) ?? true {
                best = (candidate, distance, prefix)
            }
        }
        guard let best, best.distance <= max(1, word.count / 3), best.distance < word.count else { return nil }
        return best.name
    }

    /// How many single-character insertions, deletions, substitutions or swaps of two
    /// neighbours turn `a` into `b` (the optimal string alignment distance): each common
    /// typo (a missed, extra, wrong or swapped key) counts as one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // distance[i][j]: between the first i characters of a and the first j of b.
        var distance = (0...a.count).map { i in (0...b.count).map { j in i == 0 ? j : j == 0 ? i : 0 } }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = distance[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                distance[i][j] = min(distance[i - 1][j] + 1, distance[i][j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
                }
            }
        }
        return distance[a.count][b.count]
    }
}
