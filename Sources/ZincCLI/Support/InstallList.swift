import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The installs `zinc rollout status --installs FILE` reads: a line each, `ID
/// [KEY=VALUE ...]` separated by spaces or tabs, blank lines and lines starting with `#`
/// skipped. The file is read in 64 KiB pieces and each install handed on as its line
/// ends, so a list of any length (a support export, a simulation's 100,000 installs)
/// costs one piece and one line of memory.
struct InstallList {
    /// Longer than any valid line needs (an id is at most 128 bytes, an attribute 265):
    /// a line past it is refused before a file without newlines is read whole.
    static let lineLimit = 1 << 16

    /// The file as messages name it: its path, or "standard input" for `-`.
    let name: String
    private let file: PosixFile

    /// The file at `path`, or standard input for `-`.
    init(path: String) throws {
        if path == "-" {
            name = "standard input"
            // A descriptor of its own: the file closes it when it is done, and stdin stays open.
            let fd = dup(STDIN_FILENO)
            guard fd >= 0 else { throw ZincError.io(path: name, operation: "dup", errno: errno) }
            file = PosixFile(fd: fd, path: name)
        } else {
            name = path
            file = try PosixFile.open(path)
        }
    }

    /// Hands each install on in the file's order. A line that is not an install stops the
    /// reading with an error naming the file and the line.
    func forEach(_ body: (InstallIdentity) throws -> Void) throws {
        var line = [UInt8]()
        var number = 0
        func end() throws {
            number += 1
            if let install = try parse(line, number: number) { try body(install) }
            line.removeAll(keepingCapacity: true)
        }
        try file.forEachChunk(chunkSize: 1 << 16) { chunk in
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: 0x0A) {
                line.append(contentsOf: chunk[start..<newline])
                try end()
                start = newline + 1
            }
            line.append(contentsOf: chunk[start...])
            guard line.count <= Self.lineLimit else {
                throw CLIError.badInstallLine(file: name, line: number + 1, reason: "longer than \(Self.lineLimit) bytes")
            }
        }
        if !line.isEmpty { try end() }
    }

    /// The install a line gives, nil for a blank line or a comment.
    private func parse(_ bytes: [UInt8], number: Int) throws -> InstallIdentity? {
        func bad(_ reason: String) -> CLIError { .badInstallLine(file: name, line: number, reason: reason) }
        guard bytes.count <= Self.lineLimit else { throw bad("longer than \(Self.lineLimit) bytes") }
        // A file written on Windows ends its lines in "\r\n".
        let content = bytes.last == 0x0D ? bytes.dropLast() : bytes[...]
        guard let text = String(validating: content, as: UTF8.self) else { throw bad("not UTF-8") }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let id = fields.first, !id.hasPrefix("#") else { return nil }
        do {
            return try InstallIdentity(id: String(id), attributes: fields.dropFirst().map { try Attribute(parsing: String($0)) })
        } catch let error as ZincError {
            throw bad(error.description)
        }
    }
}
