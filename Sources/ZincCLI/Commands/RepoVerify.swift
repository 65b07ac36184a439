import ArgumentParser
import Zinc
import ZincClient

struct RepoVerify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Hash every object of a client repo and check each bundle's files; --repair fetches what is damaged.",
        discussion: """
            A bundle's files are hard links to the repo's verified objects, read-only. A file \
            edited anyway (after a chmod), replaced or removed, or an object damaged on disk, \
            makes its bundle damaged. 'sync' and 'status' notice the damage that changed a \
            file's size or times; verify hashes everything, so it also finds what a failing \
            disk changed silently. With --repair, the damaged objects (and only they) are \
            fetched again and the damaged folders rebuilt, each bundle staying at its version.
            Exit status 2 when damage was found and is not repaired.
            """
    )

    @OptionGroup var repo: RepoOption

    @Flag(help: "Fetch the damaged or missing objects again and rebuild the damaged folders.")
    var repair = false

    @Flag(
        help: """
            Print one JSON document: {"bundles": [{"catalog", "bundle", "version", "folder", "damaged_files"}], \
            "repair": <sync's JSON, with --repair>}.
            """)
    var json = false

    func run() throws {
        let opened = try repo.open()
        var found = try opened.verify()
        var repairReport: SyncReport?
        if repair, found.contains(where: { !$0.isHealthy }) {
            repairReport = try SyncEngine(repo: opened, options: .command).repair()
            found = try opened.verify()
        }
        if json {
            try printJSON(Report(bundles: found, repair: repairReport))
        } else {
            for line in repairReport?.bundles.map(\.line) ?? [] { print(line) }
            for bundle in found {
                let name = "\(bundle.catalog).\(bundle.bundle)\(bundle.flavor.map { "~" + $0 } ?? "") \(bundle.version)"
                if bundle.isHealthy {
                    print("\(name): healthy")
                } else {
                    print("\(name): \(HumanFormat.count(bundle.damagedFiles.count, "damaged file")) in \(bundle.folder)")
                    for file in bundle.damagedFiles { print("  \(file)") }
                }
            }
        }
        if let failed = repairReport?.bundles.filter({ $0.error != nil }).count, failed > 0 {
            throw CLIError.bundlesFailedToSync(failed: failed, total: repairReport?.bundles.count ?? 0)
        }
        if found.contains(where: { !$0.isHealthy }) {
            if !json {
                print(repair ? "Damage remains." : "Run \(repo.hint("repo", "verify", "--repair")) (or \(repo.hint("sync"))) to repair it.")
            }
            throw ExitStatus.problemsFound
        }
    }
}

extension RepoVerify {
    /// `repo verify --json`: each checked-out version's health, and with `--repair` what
    /// the repair's sync did.
    struct Report: Encodable {
        let bundles: [BundleHealth]
        let repair: SyncReport?
    }
}
