// The test support is a plain target, which `swift build -c release` (make build) also
// compiles, and there Swift Testing is not available: the runner exists for test builds.
#if canImport(Testing)
import Testing

/// `zinc` run as the tests run it: in one folder, with the same additions to the
/// environment, each run's checks reported at the test's line (`sourceLocation`).
///
///     var zinc: ZincRunner { ZincRunner(in: dir) }
///     let listing = try zinc("list_bundle", "--catalog", "cat", "--bundle", "B")
///     try zinc.expectFailure(["verify", "--catalog", "nope"], message: "...")
public struct ZincRunner: Sendable {
    /// The folder `zinc` runs in.
    public let directory: String
    /// Added to (or overriding) `ZincBinary.environment(in:)` for every run.
    public let environment: [String: String]
    /// Whether a successful run must also leave stderr empty.
    public let silentStderr: Bool

    public init(in directory: String, environment: [String: String] = [:], silentStderr: Bool = true) {
        self.directory = directory
        self.environment = environment
        self.silentStderr = silentStderr
    }

    public init(in directory: TemporaryDirectory, environment: [String: String] = [:], silentStderr: Bool = true) {
        self.init(in: directory.path, environment: environment, silentStderr: silentStderr)
    }

    /// Runs `zinc` to the end and checks nothing; `environment` replaces the runner's for
    /// this run.
    @discardableResult
    public func run(_ arguments: [String], environment: [String: String]? = nil) throws -> ZincBinary.Result {
        try ZincBinary.run(arguments, in: directory, extraEnvironment: environment ?? self.environment)
    }

    /// Runs `zinc` expecting exit status 0 and, with `silentStderr`, nothing on stderr.
    @discardableResult
    public func succeeds(
        _ arguments: [String], environment: [String: String]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ZincBinary.Result {
        try check(arguments, environment: environment, status: 0, stderr: silentStderr ? "" : nil, sourceLocation: sourceLocation)
    }

    /// `succeeds`, returning stdout.
    @discardableResult
    public func callAsFunction(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try succeeds(arguments, sourceLocation: sourceLocation).stdout
    }

    /// `succeeds`, returning stdout.
    @discardableResult
    public func callAsFunction(
        _ arguments: [String], environment: [String: String]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        try succeeds(arguments, environment: environment, sourceLocation: sourceLocation).stdout
    }

    /// Runs `zinc` expecting exactly this exit status, stdout and stderr.
    @discardableResult
    public func expect(
        _ arguments: [String], status: Int32 = 0, stdout: String = "", stderr: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ZincBinary.Result {
        try check(arguments, status: status, stdout: stdout, stderr: stderr, sourceLocation: sourceLocation)
    }

    /// Runs `zinc` expecting it to fail, printing exactly `stderr`: with exit status
    /// `status` (any but 0 when nil), and nothing on stdout unless `quietStdout` is false.
    @discardableResult
    public func expectFailure(
        _ arguments: [String], status: Int32? = 1, stderr: String, quietStdout: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ZincBinary.Result {
        try check(arguments, status: status, stdout: quietStdout ? "" : nil, stderr: stderr, sourceLocation: sourceLocation)
    }

    /// `expectFailure` with `zinc: error: MESSAGE` as stderr's one line.
    @discardableResult
    public func expectFailure(
        _ arguments: [String], status: Int32? = 1, message: String, quietStdout: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ZincBinary.Result {
        try expectFailure(
            arguments, status: status, stderr: "zinc: error: \(message)\n", quietStdout: quietStdout, sourceLocation: sourceLocation)
    }

    /// Runs `zinc` and checks what is given: the exit status (when nil, any but 0), stdout
    /// and stderr.
    private func check(
        _ arguments: [String], environment: [String: String]? = nil, status: Int32?, stdout: String? = nil, stderr: String?,
        sourceLocation: SourceLocation
    ) throws -> ZincBinary.Result {
        let result = try run(arguments, environment: environment)
        if let status {
            #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        } else {
            #expect(result.status != 0, "\(arguments)", sourceLocation: sourceLocation)
        }
        if let stdout { #expect(result.stdout == stdout, "\(arguments)", sourceLocation: sourceLocation) }
        if let stderr { #expect(result.stderr == stderr, "\(arguments)", sourceLocation: sourceLocation) }
        return result
    }
}

extension TemporaryDirectory {
    /// `zinc` run in this folder: `try dir.zinc(["list", "--catalog", "cat"])`.
    public var zinc: ZincRunner { ZincRunner(in: self) }
}
#endif
