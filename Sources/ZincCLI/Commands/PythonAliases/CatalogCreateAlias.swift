import ArgumentParser
import Zinc

struct CatalogCreateAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog:create",
        abstract: "The Python tool's spelling of create_catalog: create catalog ID at DIR/ID.",
        shouldDisplay: false
    )

    @Argument(help: "The catalog id, reverse-DNS style.")
    var catalogID: String

    @Option(name: [.customShort("s"), .customLong("storage")], help: "The folder that holds catalogs.")
    var storage = CatalogLocation.defaultFolder

    @OptionGroup var signing: SigningOption

    func run() throws {
        let folder = try CatalogLocation.destination(storage).rootPath
        // create_catalog itself runs, so both spellings cannot drift apart. Values go as
        // --option=value so one that starts with '-' is never taken for an option.
        try CreateCatalog.parse(["--id=\(catalogID)", "--dest=\(folder)/\(catalogID)"] + signing.arguments).run()
    }
}
