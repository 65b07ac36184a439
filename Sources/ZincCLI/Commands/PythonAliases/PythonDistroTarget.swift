import ArgumentParser

/// Which distribution a Python-spelled distro command acts on: `-c CAT -b B -d D`.
struct PythonDistroTarget: ParsableArguments {
    @OptionGroup var catalog: PythonCatalogOption

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("d"), .customLong("distro")], help: "The distribution name.")
    var distro: String
}
