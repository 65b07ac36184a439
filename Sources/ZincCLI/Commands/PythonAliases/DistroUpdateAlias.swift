import ArgumentParser

struct DistroUpdateAlias: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distro:update",
        abstract: "The Python tool's spelling of update_distro."
    )

    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("d"), .customLong("distro")], help: "The distribution name.")
    var distro: String

    @Option(name: [.customShort("v"), .customLong("version")], help: "A version number, :latest or @DISTRO.")
    var version: String

    @Flag(help: "Do not keep the replaced version under _DISTRO.")
    var noPrevDistro = false

    func run() throws {
        // update_distro itself runs, so both spellings cannot drift apart. Values go as
        // --option=value so one that starts with '-' is never taken for an option.
        let arguments = ["--catalog=\(catalog)", "--id=\(bundle)", "--name=\(distro)", "--version=\(version)"]
        try UpdateDistro.parse(arguments + (noPrevDistro ? ["--no-prev"] : [])).run()
    }
}
