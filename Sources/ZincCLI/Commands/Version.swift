import ArgumentParser
import Zinc

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print zinc's version and the catalog format it writes (also 'zinc --version')."
    )

    /// `zinc 1.0.0 (catalog format 1)`: a bug report or a pipeline log says both which
    /// tool ran and which clients can read what it wrote.
    static var text: String { "zinc \(ZincVersion.release) (catalog format \(CatalogIndex.formatVersion))" }

    func run() {
        print(Self.text)
    }
}
