/// What `verify` found: every problem, each naming the catalog file at fault, and how
/// much was checked.
public struct VerificationReport: Equatable, Sendable, Encodable {
    /// One thing wrong with one file.
    public struct Problem: Equatable, Comparable, Sendable, CustomStringConvertible, Encodable {
        /// Catalog-relative path of the file at fault (`catalog.json` for index content).
        public let path: String
        public let problem: String

        public init(path: String, problem: String) {
            self.path = path
            self.problem = problem
        }

        public var description: String { "\(path): \(problem)" }

        public static func < (lhs: Problem, rhs: Problem) -> Bool {
            (lhs.path, lhs.problem) < (rhs.path, rhs.problem)
        }
    }

    /// Sorted by path, so reports of the same damage read the same.
    public let problems: [Problem]
    public let bundles: Int
    public let versions: Int
    /// Distinct object files (one per sha and format, however many manifests share it).
    public let objects: Int
    public let archives: Int
    /// Versions no distribution or `_D` pointer names that lack an archive: not a
    /// problem, as only those have one (see `ArchivePolicy`).
    public let unarchived: Int

    public init(problems: [Problem], bundles: Int, versions: Int, objects: Int, archives: Int, unarchived: Int = 0) {
        self.problems = problems.sorted()
        self.bundles = bundles
        self.versions = versions
        self.objects = objects
        self.archives = archives
        self.unarchived = unarchived
    }

    public var isOK: Bool { problems.isEmpty }

    /// The line saying how many versions lack archives they need not have, nil when none do.
    public var unarchivedNote: String? {
        guard unarchived > 0 else { return nil }
        let versions = HumanFormat.count(unarchived, "version")
        return "\(versions) no distribution names \(unarchived == 1 ? "has" : "have") no archive: only a version a pointer names needs one"
    }

    /// `Verified 3 bundles, 7 versions, 120 objects, 9 archives: 2 problems`
    public var summary: String {
        let checked = [
            HumanFormat.count(bundles, "bundle"), HumanFormat.count(versions, "version"), HumanFormat.count(objects, "object"),
            HumanFormat.count(archives, "archive"),
        ].joined(separator: ", ")
        return "Verified \(checked): " + (isOK ? "no problems" : HumanFormat.count(problems.count, "problem"))
    }

    private enum CodingKeys: CodingKey { case ok, problems, checked }

    private enum CheckedKeys: CodingKey { case bundles, versions, objects, archives, unarchived }

    /// `{"checked":{…},"ok":…,"problems":[{"path":…,"problem":…}]}`, for scripts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isOK, forKey: .ok)
        try container.encode(problems, forKey: .problems)
        var checked = container.nestedContainer(keyedBy: CheckedKeys.self, forKey: .checked)
        try checked.encode(bundles, forKey: .bundles)
        try checked.encode(versions, forKey: .versions)
        try checked.encode(objects, forKey: .objects)
        try checked.encode(archives, forKey: .archives)
        try checked.encode(unarchived, forKey: .unarchived)
    }
}
