/// How many single-character insertions, deletions, substitutions or swaps of two
/// neighbours turn `a` into `b` (the optimal string alignment distance): each common
/// typo (a missed, extra, wrong or swapped key) counts as one.
func editDistance(_ a: String, _ b: String) -> Int {
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

/// The candidate nearest to `word` when it is near enough to be what the user meant
/// (at most one typo per three characters); the earlier candidate wins a tie.
func nearest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (name: $0, distance: editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }),
        best.distance <= max(1, word.count / 3)
    else { return nil }
    return best.name
}
