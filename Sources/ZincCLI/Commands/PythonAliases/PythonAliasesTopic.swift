import ArgumentParser

/// `zinc help python-aliases` (or `zinc python-aliases`): the Python tool's spellings,
/// which the top-level help leaves out so that it lists each command once.
struct PythonAliasesTopic: ParsableCommand {
    /// Every Python-tool spelling, each a hidden command of its own.
    static let commands: [ParsableCommand.Type] = [
        CatalogCreateAlias.self,
        CatalogListAlias.self,
        BundleUpdateAlias.self,
        BundleListAlias.self,
        BundleCloneAlias.self,
        DistroUpdateAlias.self,
        FlavorspecListAlias.self,
        FlavorspecUpdateAlias.self,
        FlavorspecDeleteAlias.self,
        DumpIndexAlias.self,
        DumpManifestAlias.self,
        DumpFlavorspecAlias.self,
        DebugFlavorsAlias.self,
        CatalogVerifyAlias.self,
        BundleVerifyAlias.self,
        CatalogCleanAlias.self,
        BundleDeleteAlias.self,
        DistroDeleteAlias.self,
    ]

    static let configuration = CommandConfiguration(
        commandName: "python-aliases",
        abstract: "List the Python tool's command spellings (bundle:update, catalog:list, ...) that zinc accepts.",
        discussion: """
            Scripts written for the original Python tool run unchanged: each of these \
            spellings takes that tool's options (-c CAT, -b BUNDLE, -v VERSION, ...) and \
            does what the zinc command it names does. 'zinc SPELLING --help' shows its options.
            The options that tool takes before its command work too: --format json (one JSON \
            object per line from catalog:list and bundle:list, verify's JSON report from \
            catalog:verify and bundle:verify), --loglevel info|debug, and -C FILE (ignored, \
            with a warning: zinc reads no config file).

            \(table)
            """,
        shouldDisplay: false
    )

    /// One entry per spelling with its abstract (which names the zinc command), built
    /// from the commands themselves so the list cannot miss one; wrapped to 80 columns
    /// under its own indent, as the help prints lines as they are.
    static var table: String {
        let names = commands.map { $0.configuration.commandName ?? "" }
        let indent = (names.map(\.count).max() ?? 0) + 2
        return zip(names, commands).map { name, command in
            var lines: [String] = []
            var line = name + String(repeating: " ", count: indent - name.count)
            var lineHasWords = false
            for word in command.configuration.abstract.split(separator: " ") {
                if lineHasWords && line.count + 1 + word.count > 80 {
                    lines.append(line)
                    line = String(repeating: " ", count: indent)
                    lineHasWords = false
                }
                line += (lineHasWords ? " " : "") + word
                lineHasWords = true
            }
            return (lines + [line]).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    func run() {
        print(Self.table)
    }
}
