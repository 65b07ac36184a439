import ArgumentParser

/// Which distribution a Python-spelled distro command acts on: `-c CAT -b B -d D`.
struct PythonDistroTarget: ParsableArguments {
    @Option(name: [.customShort("c"), .customLong("catalog")], help: "The catalog.")
    var catalog: String

    @Option(name: [.customShort("b"), .customLong("bundle")], help: "The bundle name.")
    var bundle: String

    @Option(name: [.customShort("d"), .customLong("distro")], help: "The distribution name.")
    var distro: String
}
