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
        if let path = repo ?? environment { return try Repo(at: path) }
        if let found = try Repo.discover(from: FileManager.default.currentDirectoryPath) { return found }
        throw ValidationError("No client repo here: give --repo DIR, set ZINC_REPO, or run inside a repo (see 'zinc repo_init').")
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
