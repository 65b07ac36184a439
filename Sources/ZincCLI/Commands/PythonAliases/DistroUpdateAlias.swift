import ArgumentParser

struct DistroUpdateAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distro:update",
        abstract: "The Python tool's spelling of update_distro.",
        shouldDisplay: false
    )

    @OptionGroup var target: PythonDistroTarget

    @Option(name: [.customShort("v"), .customLong("version")], help: "A version number, :latest or @DISTRO.")
    var version: String

    @OptionGroup var timeout: PythonTimeoutOption

    @OptionGroup var signing: SigningOption

    @Flag(help: "Do not keep the replaced version under _DISTRO.")
    var noPrevDistro = false

    func run() throws {
        // update_distro itself runs, so both spellings cannot drift apart. Values go as
        // --option=value so one that starts with '-' is never taken for an option. The
        // Python tool creates a missing distribution whatever its name: --create.
        let arguments = [
            "--catalog=\(target.catalog.text)", "--id=\(target.bundle)", "--name=\(target.distro)", "--version=\(version)", "--create",
        ]
        try UpdateDistro.parse(arguments + (noPrevDistro ? ["--no-prev"] : []) + signing.arguments).run()
    }
}
