import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ZincBinary {
    public struct TerminalResult: Sendable {
        public let status: Int32
        /// Everything written to the terminal (stderr, and stdout when it went there too),
        /// with the terminal's `\n` -> `\r\n` translation.
        public let terminal: String
        /// stdout, when it went to a pipe instead.
        public let stdout: String
    }

    /// Runs `zinc` with stderr on a pseudo-terminal `columns` wide, and stdout there too
    /// or on a pipe, for what only a person at a terminal sees (progress bars).
    public static func runOnTerminal(
        _ arguments: [String], in directory: String,
        stdoutOnTerminal: Bool = true, columns: UInt16 = 80
    ) throws -> TerminalResult {
        let master = PTY.openMaster(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(master) }
        guard PTY.grant(master) == 0, PTY.unlock(master) == 0, let name = PTY.name(master) else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        #if canImport(Glibc)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        #else
        _ = ioctl(slave, TIOCSWINSZ, &size)
        #endif
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        let pipe = stdoutOnTerminal ? nil : Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ZincBinary.environment(in: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardError = terminal
        process.standardOutput = pipe ?? terminal
        try process.run()
        // Only the child holds the terminal now, so reading ends (EIO) when it exits.
        try terminal.close()
        var written = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            written += buffer[0..<count]
        }
        let stdout = pipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return TerminalResult(
            status: process.terminationStatus, terminal: String(decoding: written, as: UTF8.self),
            stdout: String(decoding: stdout, as: UTF8.self))
    }
}

/// The POSIX pseudo-terminal calls. glibc declares them only for _XOPEN_SOURCE, which
/// Swift's Glibc module does not import, so they are looked up by symbol there.
private enum PTY {
    #if canImport(Glibc)
    static let openMaster: @convention(c) (Int32) -> Int32 = symbol("posix_openpt")
    static let grant: @convention(c) (Int32) -> Int32 = symbol("grantpt")
    static let unlock: @convention(c) (Int32) -> Int32 = symbol("unlockpt")
    static let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>? = symbol("ptsname")

    private static func symbol<F>(_ name: String) -> F {
        unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)!, to: F.self)
    }
    #else
    static let openMaster = posix_openpt
    static let grant = grantpt
    static let unlock = unlockpt
    static let name = ptsname
    #endif
}
