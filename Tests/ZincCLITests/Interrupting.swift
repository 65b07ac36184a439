import Foundation
import Testing
import ZincTestSupport

/// Runs zinc in `directory`, sends it SIGINT once `started()` holds (or a minute has
/// passed), and returns its stderr, expecting the exit status 130 of a process SIGINT
/// stopped.
func zincInterrupted(
    _ arguments: [String], in directory: String, once started: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ZincBinary.path)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = ZincBinary.environment(in: directory)
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while !started(), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    kill(process.processIdentifier, SIGINT)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(stderr)", sourceLocation: sourceLocation)
    return stderr
}
