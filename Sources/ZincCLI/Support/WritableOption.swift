import ArgumentParser

/// `--writable`, for the commands that start tracking a bundle (`track`, `repo seed`).
struct WritableOption: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Give the bundle's files as copies the app may write to (clones where the file system makes them).",
            discussion: "By default they are read-only hard links to the repo's objects, stored once; sync then checks and repairs them."))
    var writable = false
}
