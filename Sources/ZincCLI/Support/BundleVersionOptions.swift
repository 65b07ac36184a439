import ArgumentParser

/// `--catalog CAT --bundle B --version V`: the bundle version a command reads.
struct BundleVersionOptions: ParsableArguments {
    @OptionGroup var catalog: CatalogOption

    @Option(name: [.customLong("bundle"), .customLong("name")], help: "The bundle name (--name is a synonym).")
    var name: String

    @Option(help: "A version number, 'latest' or @DISTRO.")
    var version: String
}

/// The Python tool's spelling of the same: `-c CAT -b B -v V`.
struct PythonBundleVersionOptions: ParsableArguments {
    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("v"), .customLong("version")], help: "A version number, :latest or @DISTRO.")
    var version: String
}
