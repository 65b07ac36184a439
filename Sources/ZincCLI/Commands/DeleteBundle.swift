import ArgumentParser
import Zinc

struct DeleteBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete_bundle",
        abstract: "Delete versions of a bundle.",
        discussion: """
            Each VERSION is a number, 'latest', @DISTRO, 'all', or 'unreferenced' (every \
            version no distribution points at). A version that a distribution, or the _DISTRO \
            pointer keeping its previous version, refers to is refused, and then nothing is \
            deleted: move or delete the distribution first. The versions leave the index; their \
            manifests and archives (listed) stay for clients that read the index before, and \
            'zinc clean --force' removes them, with the objects no version uses any more, once \
            the index's cache lifetime (5 minutes) has passed. A bundle left without versions \
            keeps its entry, so its version numbers are never used again.
            """,
        aliases: ["delete-bundle"]
    )

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var signing: SigningOption

    @Option(
        name: [.customLong("bundle"), .customLong("name"), .customLong("id")],
        help: "The bundle name (--name and --id are synonyms).")
    var name: String

    @Option(
        name: [.customLong("versions"), .customLong("version")], parsing: .upToNextOption,
        help: "The versions to delete (--version is a synonym).")
    var versions: [String]

    @Flag(help: "Only print what would be deleted.")
    var dryRun = false

    @Flag(help: "Print one JSON document instead: {\"bundle\", \"dry_run\", \"deleted_versions\", \"no_version_left\", \"files\"}.")
    var json = false

    func run() throws {
        try Self.delete(catalog: try catalog.reference.signed(by: signing), bundle: name, versions: versions, dryRun: dryRun, json: json)
    }

    /// The whole command, shared with its Python-tool spelling `bundle:delete`.
    static func delete(
        catalog location: CatalogReference, bundle: String, versions: [String], dryRun: Bool,
        json: Bool = false
    ) throws {
        let catalog = try location.open()
        let operation = VersionDeletion(catalog, bundle: bundle, versions: try versions.map(VersionSelection.init))
        let deletion = try dryRun ? operation.plan() : operation.run()
        if json {
            return try printJSON(
                Report(
                    bundle: bundle, dryRun: dryRun, deletedVersions: deletion.versions,
                    noVersionLeft: deletion.removesLastVersion, files: deletion.files))
        }
        guard !deletion.versions.isEmpty else {
            print("No version of '\(bundle)' to delete")
            return
        }
        for path in deletion.files { print(path) }
        let numbers = deletion.versions.map(String.init).joined(separator: ", ")
        let plural = deletion.versions.count == 1 ? "" : "s"
        print(
            "\(dryRun ? "Would delete" : "Deleted") version\(plural) \(numbers) of '\(bundle)'"
                + (deletion.removesLastVersion ? "; no version is left (its numbers stay used)" : ""))
        if !dryRun && !deletion.files.isEmpty {
            print(
                "The files stay \(GraceOption.describe(Catalog.indexCacheLifetime)) for clients holding the old index; "
                    + "\(location.hint("clean", "--force")) removes them after that")
        }
    }
}

extension DeleteBundle {
    /// `delete_bundle --json`: the versions deleted (or that would be) and their files.
    struct Report: Encodable {
        let bundle: String
        let dryRun: Bool
        let deletedVersions: [Int]
        let noVersionLeft: Bool
        let files: [String]
    }
}
