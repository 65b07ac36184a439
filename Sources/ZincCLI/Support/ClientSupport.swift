import ArgumentParser
import Zinc
import ZincClient
import ZincS3

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--repo DIR`, shared by the client commands: defaults to $ZINC_REPO, then to the
/// repo the current folder is in (as git finds its repository).
struct RepoOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The client repo folder.", discussion: "Defaults to $ZINC_REPO, then to the repo the current folder is in.",
            valueName: "DIR"))
    var repo: String?

    private var environment: String? { ProcessInfo.processInfo.environment["ZINC_REPO"].flatMap { $0.isEmpty ? nil : $0 } }

    func open() throws -> Repo {
        if let path = repo ?? environment {
            guard FileManager.default.fileExists(atPath: path + "/" + Repo.stateFileName) else {
                throw CLIError.repoNotFound(path, suggestion: Self.nearestRepo(to: path), create: hint("repo_init"))
            }
            return try Repo(at: path)
        }
        if let found = try Repo.discover(from: FileManager.default.currentDirectoryPath) { return found }
        throw ValidationError("No client repo here: give --repo DIR, set ZINC_REPO, or run inside a repo (see 'zinc repo_init').")
    }

    /// The repo beside `path` whose name is a typo away from it (`ap` for `app`), as
    /// `path` would be written to name it.
    private static func nearestRepo(to path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: parent.isEmpty ? "." : parent)) ?? []
        let repos = siblings.prefix(1000).filter { FileManager.default.fileExists(atPath: parent + $0 + "/" + Repo.stateFileName) }
        return Spelling.nearest(to: name, among: repos).map { parent + $0 }
    }

    /// The folder `repo_init` creates the repo in: there is nothing to discover yet.
    func folderToCreate() throws -> String {
        guard let path = repo ?? environment else {
            throw ValidationError("Missing expected argument '--repo <DIR>' (or set ZINC_REPO)")
        }
        return path
    }
}

extension SyncOptions {
    /// The options the client commands start from: catalogs in S3 buckets
    /// (`s3://BUCKET/PREFIX`, with the AWS configuration the publisher uses) as well as
    /// over HTTP and in folders.
    static var command: SyncOptions { SyncOptions(sourceFactory: makeCatalogSourceWithS3) }
}
