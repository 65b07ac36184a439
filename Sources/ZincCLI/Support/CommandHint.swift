import Zinc

/// A command zinc suggests to its user, in quotes, written so that pasting it runs it:
/// with the catalog (or repo) and endpoint the command that suggests it was given.
enum CommandHint {
    static func zinc(_ words: [String]) -> String {
        ShellQuoting.hint(words)
    }
}

extension CatalogReference {
    /// `zinc WORDS --catalog CATALOG`, quoted as `CommandHint` does.
    func hint(_ words: String...) -> String {
        CommandHint.zinc(words + ["--catalog", text] + (endpointURL.map { ["--endpoint-url", $0] } ?? []))
    }
}

extension RepoOption {
    /// `zinc WORDS --repo DIR` with the `--repo` given (found from $ZINC_REPO or the
    /// current folder otherwise, as for the command that suggests it).
    func hint(_ words: String...) -> String {
        CommandHint.zinc(words + (repo.map { ["--repo", $0] } ?? []))
    }
}
