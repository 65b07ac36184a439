/// Last-modified-first-out member order for archives. An object's `intro` is the oldest
/// version k such that the object is in every existing version from k up to this one;
/// members go by `intro` descending, then sha. A client holding version v then misses
/// only the members at the front, and fetches them with one `Range: bytes=0-N`.
public enum LMFOOrder {
    /// - Parameters:
    ///   - objects: the shas of the archive being written (version `version`).
    ///   - earlierVersions: the existing versions before it, any order.
    ///   - objectsOf: the shas the same archive scope (whole bundle or one flavor) held
    ///     in an earlier version. Called newest first, and only as far back as needed.
    public static func order(objects: Set<String>, version: Int, earlierVersions: [Int],
                             objectsOf: (Int) throws -> Set<String>) rethrows -> [String] {
        var intro = Dictionary(uniqueKeysWithValues: objects.map { ($0, version) })
        var stillContinuous = objects
        for earlier in earlierVersions.filter({ $0 < version }).sorted(by: >) {
            stillContinuous.formIntersection(try objectsOf(earlier))
            if stillContinuous.isEmpty { break }
            for sha in stillContinuous { intro[sha] = earlier }
        }
        // Sort keys looked up once per object, not twice per comparison.
        return intro.map { (sha: $0.key, intro: $0.value) }
            .sorted { $0.intro != $1.intro ? $0.intro > $1.intro : $0.sha < $1.sha }
            .map(\.sha)
    }
}
