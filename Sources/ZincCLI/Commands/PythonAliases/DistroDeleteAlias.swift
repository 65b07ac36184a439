import ArgumentParser

struct DistroDeleteAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distro:delete",
        abstract: "The Python tool's spelling of delete_distro.",
        shouldDisplay: false
    )

    @OptionGroup var target: PythonDistroTarget

    @OptionGroup var timeout: PythonTimeoutOption

    @OptionGroup var signing: SigningOption

    func run() throws {
        try DeleteDistro.delete(catalog: target.catalog.reference.signed(by: signing), bundle: target.bundle, distro: target.distro)
    }
}
