import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A background program (a test server) that never outlives the test process: it is
/// started by a small shell that holds the read end of a pipe whose only writer is this
/// process, and kills the program (and removes `removing`, its log) when the pipe
/// reaches its end, which happens when `stop()` closes it or when this process exits
/// in any way, crashed or killed included.
public final class TetheredProcess: @unchecked Sendable {
    /// The shell; the program is its child.
    public let shell = Process()
    private let lock = NSLock()
    private var lifeline: Int32

    /// - Parameters:
    ///   - output: the program's standard output and error (nil: discarded).
    ///   - removing: a file the shell removes once the program is gone.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, output: Any? = nil, removing file: String = ""
    ) throws {
        let script = """
            file=$1; shift
            "$@" </dev/null &
            child=$!
            exec >/dev/null 2>&1  # the program alone holds its output: a reader sees it end with it
            stop() { kill -9 "$child" 2>/dev/null; wait "$child" 2>/dev/null; [ -z "$file" ] || rm -f "$file"; exit 0; }
            trap stop HUP INT TERM
            while read -r _; do :; done
            stop
            """
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestServerError("pipe: errno \(errno)") }
        // Neither end may leak into other children (zinc processes the tests start):
        // a leaked writer would keep the program alive after this process.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let readEnd = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        lifeline = fds[1]
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script, "tethered", file, executable] + arguments
        shell.environment = environment
        currentDirectory.map { shell.currentDirectoryURL = URL(fileURLWithPath: $0) }
        shell.standardInput = readEnd
        shell.standardOutput = output ?? FileHandle.nullDevice
        shell.standardError = output ?? FileHandle.nullDevice
        do {
            // A child inherits the signal mask of the thread that starts it, and the test
            // runner's threads block most signals: the shell and the program would then
            // ignore the signals that stop them.
            var none = sigset_t(), previous = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            try shell.run()
        } catch {
            close(fds[1])
            throw TestServerError("cannot start /bin/sh for \(executable): \(error)")
        }
        try? readEnd.close()
    }

    deinit { stop() }

    /// Stops the program and waits (up to 10 s) until it and its shell are gone.
    public func stop() {
        let fd = lock.withLock { () -> Int32 in
            defer { lifeline = -1 }
            return lifeline
        }
        guard fd >= 0 else { return }
        close(fd)
        let deadline = Date().addingTimeInterval(10)
        while shell.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }
}
