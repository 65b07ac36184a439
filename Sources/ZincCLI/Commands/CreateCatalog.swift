import ArgumentParser
import Zinc

struct CreateCatalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create_catalog",
        abstract: "Create an empty catalog.",
        discussion: "Without --dest the catalog goes to catalogs/<ID>, the embedded default folder.",
        aliases: ["create-catalog"]
    )

    @Option(help: "The catalog id, reverse-DNS style (letters, digits, '.', '_', '-').")
    var id: String

    @Option(help: "Where to create it: a path, file:///abs/path, file://relative/path or s3://BUCKET/PREFIX.")
    var dest: String?

    @OptionGroup var remote: RemoteOptions

    @OptionGroup var signing: SigningOption

    func run() throws {
        let storage =
            try dest.map { try remote.registry.destinationStorage($0) }
            ?? FileStorage(root: CatalogLocation.embedded(id: id).rootPath)
        _ = try Catalog.create(id: id, in: storage, signer: signing.signer())
        print("Created catalog '\(id)' at \(storage.location)")
    }
}
