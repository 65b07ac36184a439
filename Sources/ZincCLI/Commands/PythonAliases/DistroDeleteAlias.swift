import ArgumentParser

struct DistroDeleteAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distro:delete",
        abstract: "The Python tool's spelling of delete_distro."
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("d"), .customLong("distro")], help: "The distribution name.")
    var distro: String

    func run() throws {
        try DeleteDistro.delete(catalog: catalog, bundle: bundle, distro: distro)
    }
}
