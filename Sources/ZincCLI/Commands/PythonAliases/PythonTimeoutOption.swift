import ArgumentParser

/// The Python tool's `--timeout SECONDS` (how long to wait for the catalog's lock, 0
/// for ever), taken so its scripts run; zinc keeps its own waits: a local catalog's
/// lock (flock) is waited for until it is free, a bucket's lock objects up to an hour.
struct PythonTimeoutOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Accepted for the Python tool's scripts; zinc waits for locks as usual.",
            valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout, !(timeout >= 0) { throw ValidationError("--timeout must be 0 or more seconds, not \(timeout)") }
    }
}
