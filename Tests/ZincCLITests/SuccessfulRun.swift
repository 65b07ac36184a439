import Testing
import ZincTestSupport

/// Runs zinc in `directory` expecting success and a silent stderr (no warnings, and no
/// progress bar since stdout is a pipe); returns stdout.
@discardableResult
func zincSucceeds(_ arguments: [String], in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let result = try ZincBinary.run(arguments, in: directory)
    #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr == "", sourceLocation: sourceLocation)
    return result.stdout
}
