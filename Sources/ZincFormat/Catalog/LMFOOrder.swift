/// Last-modified-first-out member order for archives. An object's `intro` is the oldest
/// version k such that the object is in every existing version from k up to this one;
/// members go by `intro` descending, then sha. A client holding version v then misses
/// only the members at the front, and fetches them with one `Range: bytes=0-N`.
package enum LMFOOrder {
    /// The shas of an archive in member order.
    ///
    /// - Parameters:
    ///   - objects: the shas of the archive being written (version `version`).
    ///   - version: the version the archive belongs to.
    ///   - earlierVersions: the existing versions before it, any order.
    ///   - objectsOf: the shas the same archive scope (whole bundle or one flavor) held
    ///     in an earlier version. Called newest first, and only as far back as needed.
    package static func order(
        objects: Set<String>, version: Int, earlierVersions: [Int],
        objectsOf: (Int) throws -> Set<String>
    ) rethrows -> [String] {
        let shas = objects.sorted()
        return try positions(sorted: shas, version: version, earlierVersions: earlierVersions, objectsOf: objectsOf)
            .map { shas[$0] }
    }

    /// `order`, for objects already sorted ascending and distinct (shas, or digests, which
    /// sort the same): their positions in member order. Works on arrays, not tables:
    /// archives of 100,000 members.
    package static func positions<ID: Hashable>(
        sorted shas: [ID], version: Int, earlierVersions: [Int],
        objectsOf: (Int) throws -> Set<ID>
    ) rethrows -> [Int] {
        positions(intros: try intros(sorted: shas, version: version, earlierVersions: earlierVersions, objectsOf: objectsOf))
    }

    /// Each object's `intro`, by walking back through the earlier versions (newest
    /// first, only as far as some object's run still reaches).
    package static func intros<ID: Hashable>(
        sorted shas: [ID], version: Int, earlierVersions: [Int],
        objectsOf: (Int) throws -> Set<ID>
    ) rethrows -> [Int] {
        var intro = [Int](repeating: version, count: shas.count)
        var stillContinuous = Array(shas.indices)
        for earlier in earlierVersions.filter({ $0 < version }).sorted(by: >) {
            let held = try objectsOf(earlier)
            stillContinuous.removeAll { !held.contains(shas[$0]) }
            if stillContinuous.isEmpty { break }
            for position in stillContinuous { intro[position] = earlier }
        }
        return intro
    }

    /// Member order from the `intro` of objects sorted by sha: `intro` descending, then
    /// position (which follows sha order).
    package static func positions(intros intro: [Int]) -> [Int] {
        intro.indices.sorted { intro[$0] != intro[$1] ? intro[$0] > intro[$1] : $0 < $1 }
    }
}
