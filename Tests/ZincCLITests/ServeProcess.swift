import Foundation
import ZincTestSupport

/// `zinc serve --catalog CAT --port 0` (or other arguments) running in the background,
/// stopped when the value goes away, and with the test process however that ends (a
/// `TetheredProcess`).
final class ServeProcess {
    let process: TetheredProcess
    /// The address from the first stderr line, "Serving <path> on http://host:port/".
    let url: String
    /// The lines printed before the server took requests: that one, then any about the
    /// catalog's other addresses.
    let startupLines: [String]

    /// `startupLines` is how many lines to read before leaving the rest (the access log)
    /// to be drained unread.
    convenience init(catalog: String, in directory: String, startupLines count: Int = 1) throws {
        try self.init(arguments: ["serve", "--catalog", catalog, "--port", "0"], in: directory, startupLines: count)
    }

    init(arguments: [String], in directory: String, startupLines count: Int = 1, environment: [String: String] = [:]) throws {
        let errors = Pipe()
        process = try TetheredProcess(
            ZincBinary.path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            currentDirectory: directory, output: errors)
        let reader = errors.fileHandleForReading
        var lines: [String] = []
        while lines.count < count {
            var line = [UInt8]()
            while line.last != UInt8(ascii: "\n") {
                let byte = reader.readData(ofLength: 1)
                guard let first = byte.first else { break }
                line.append(first)
            }
            guard !line.isEmpty else { break }
            lines.append(String(decoding: line.dropLast(), as: UTF8.self))
        }
        startupLines = lines
        guard let first = lines.first, let range = first.range(of: "http://") else {
            throw CocoaError(.fileReadUnknown)
        }
        url = String(first[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
        reader.readabilityHandler = { _ = $0.availableData }
    }

    deinit { process.stop() }
}
