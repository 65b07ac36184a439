import ArgumentParser

struct DistroDeleteAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distro:delete",
        abstract: "The Python tool's spelling of delete_distro.",
        shouldDisplay: false
    )

    @OptionGroup var target: PythonDistroTarget

    @OptionGroup var timeout: PythonTimeoutOption

    func run() throws {
        try DeleteDistro.delete(catalog: target.catalog.reference, bundle: target.bundle, distro: target.distro)
    }
}
