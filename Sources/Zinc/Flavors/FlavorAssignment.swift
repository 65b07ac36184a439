extension Flavorspec {
    /// The files an import of `source` would take (by the same ignore rules), sorted,
    /// each with the flavors that would include it: what `update_bundle --flavors`
    /// would record, found without importing anything.
    public func assignment(
        ofSource source: String, defaultIgnores: Bool = true, excludes: [String] = [],
        warn: (String) -> Void
    ) throws -> [(path: String, flavors: [String])] {
        let ignoring = try IgnorePatterns.forSource(source, defaults: defaultIgnores, excludes: excludes)
        return try SourceTree.scan(source, ignoring: ignoring, warn: warn).map { ($0.relativePath, flavors(for: $0.relativePath)) }
    }
}
