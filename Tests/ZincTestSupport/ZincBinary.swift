import Foundation

/// Runs the built `zinc` executable, as a user or a build pipeline would.
public enum ZincBinary {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// Ended by a signal (`status` is then its number), not by exiting.
        public let killed: Bool
    }

    /// The binary next to the test bundle (`swift build` puts both in one folder);
    /// `ZINC_BINARY` overrides it.
    public static var path: String {
        if let override = ProcessInfo.processInfo.environment["ZINC_BINARY"] { return override }
        let folder =
            Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var candidate = folder
        // The XCTest bundle may sit one level deeper than the products folder.
        for _ in 0..<4 {
            let binary = candidate.appendingPathComponent("zinc").path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
            candidate = candidate.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("zinc").path
    }

    /// Where `zinc` run in `directory` (a test's temporary folder) keeps its stat cache:
    /// in that folder, so tests never fill the user's `~/.cache/zinc`.
    public static func cacheFolder(in directory: String) -> String {
        directory + "/.zinc-cache"
    }

    /// This process's environment, with the stat cache in `cacheFolder(in: directory)`.
    public static func environment(in directory: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ZINC_CACHE_DIR"] = cacheFolder(in: directory)
        return environment
    }

    /// Runs `zinc` to the end; `extraEnvironment` adds to (or overrides) `environment(in:)`.
    @discardableResult
    public static func run(
        _ arguments: [String], in directory: String,
        extraEnvironment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment(in: directory).merging(extraEnvironment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs so neither can fill up and block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            killed: process.terminationReason == .uncaughtSignal)
    }

    /// Starts `zinc` without waiting, for tests that run several at once.
    public static func start(
        _ arguments: [String], in directory: String,
        extraEnvironment: [String: String] = [:]
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment(in: directory).merging(extraEnvironment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
