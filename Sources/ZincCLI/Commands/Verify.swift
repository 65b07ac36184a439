import ArgumentParser
import Zinc

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that a catalog (or one bundle or version) is complete and intact.",
        discussion: """
            Checks that every object a manifest refers to exists with the recorded size and \
            hashes to its name (after gunzip for .gz objects, which must be one gzip member); \
            that every archive a version needs exists and holds exactly its objects' bytes in \
            LMFO order; that every manifest the index lists exists and describes its version; \
            that every distribution points at a listed version; and, for the whole catalog, \
            that the four index files agree. With --trusted-key, also that the index and every \
            manifest carry a valid signature by a trusted key, that the index signature covers \
            catalog.json and has not expired, and that each object's content has the SHA-256 \
            its manifest's signature records. Prints one line per problem (PATH: PROBLEM) and a \
            summary, and exits with status 2 when there is any problem (1 when the check \
            could not run). With --repair, first makes the four index files agree again: a \
            damaged or lagging copy is rewritten from catalog.json, a damaged catalog.json from \
            the copy the index signature covers, else the newest intact copy.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(help: "Check only this bundle.")
    var bundle: String?

    @Option(help: "With --bundle, check only this version: a number, 'latest' or @DISTRO.")
    var version: String?

    @Option(
        name: .customLong("trusted-key"),
        help: ArgumentHelp(
            "Check signatures against this public key file (repeatable; from 'zinc keygen').", valueName: "file"))
    var trustedKey: [String] = []

    @Flag(
        help:
            "Print one JSON document: {\"ok\", \"problems\": [{\"path\", \"problem\"}], \"checked\": {\"bundles\", \"versions\", \"objects\", \"archives\"}}."
    )
    var json = false

    @Flag(help: "First repair damaged or lagging index files (see above); needs write access.")
    var repair = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @OptionGroup var parallelism: JobsOption

    func validate() throws {
        if version != nil && bundle == nil { throw ValidationError("--version needs --bundle") }
    }

    func run() throws {
        try Self.verify(
            catalog: try catalog.reference, bundle: bundle, version: version, json: json, quiet: quiet,
            jobs: parallelism.jobs, trustedKeys: trustedKey, repair: repair)
    }

    /// The whole command, shared with its Python-tool spellings `catalog:verify` and `bundle:verify`.
    static func verify(
        catalog location: CatalogReference, bundle: String?, version: String?, json: Bool, quiet: Bool,
        jobs: Int? = nil, trustedKeys: [String] = [], repair: Bool = false
    ) throws {
        let report: VerificationReport
        do {
            let keys = try trustedKeys.map(PublicKey.load)
            let catalog = try location.open()
            if repair { try catalog.repairIndexCopies() }
            let scope: VerificationScope =
                try bundle.map { name in
                    try version.map { .version(bundle: name, try VersionSpec($0, of: name, in: catalog)) } ?? .bundle(name)
                } ?? .catalog
            let bar = ProgressBar(quiet: quiet)
            defer { bar.finish() }
            report = try CatalogVerification(catalog, scope: scope, trustedKeys: keys, workers: jobs).run { bar.show($0) }
        }
        if json {
            try printJSON(report)
        } else {
            for problem in report.problems { print(problem) }
            if let note = report.unarchivedNote { print(note) }
            print(report.summary)
        }
        if !report.isOK { throw ExitStatus.problemsFound }
    }
}
