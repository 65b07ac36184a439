/// Checks an existing archive's member order against LMFO (see `LMFOOrder`).
///
/// The order depends on the versions that existed when the archive was written, and
/// deleted versions leave gaps whose contents are gone. So each object gets the range
/// of `intro` values some history could have given it, and the order passes when one
/// choice within those ranges sorts the members by `intro` descending, then sha. With
/// no gaps every range is a single value and this is exactly the LMFO order.
enum LMFOConformance {
    /// - Parameters:
    ///   - order: the archive's objects (shas or digests), in member order (the same set
    ///     as the version holds).
    ///   - earlierVersions: the versions listed now, any order.
    ///   - objectsOf: the shas the same archive scope held in a listed earlier version.
    /// - Returns: the index of the first member no history could have put there, or nil.
    static func firstMisplaced<ID: Hashable & Comparable>(
        _ order: [ID], version: Int, earlierVersions: [Int],
        objectsOf: (Int) throws -> Set<ID>
    ) rethrows -> Int? {
        let listed = Set(earlierVersions.filter { $0 < version })
        // For each object, the newest listed version without it: its run cannot reach back past that.
        var runBreak = [ID: Int]()
        var unbroken = Set(order)
        for earlier in listed.sorted(by: >) where !unbroken.isEmpty {
            let present = try objectsOf(earlier)
            for sha in unbroken where !present.contains(sha) { runBreak[sha] = earlier }
            unbroken.formIntersection(present)
        }
        // A deleted version may have lacked any object, ending its run just above it.
        let newestGap = (1..<version).last { !listed.contains($0) }

        var level = version + 1
        var previous: ID?
        for (i, sha) in order.enumerated() {
            let lowest = (runBreak[sha] ?? 0) + 1
            let highest = newestGap.map { $0 >= lowest ? $0 + 1 : lowest } ?? lowest
            // Keeping the level as high as possible leaves the most room for later members.
            var intro = min(highest, level)
            if intro == level, let previous, sha < previous { intro -= 1 }
            if intro < lowest { return i }
            level = intro
            previous = sha
        }
        return nil
    }
}
