import ZincServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command says when Ctrl-C (or SIGTERM) stops it: the state it leaves, then the
/// process exits with 128 plus the signal's number, as a shell reports a process the
/// signal killed. Without it, `sync` and `publish` ended with 130 and not a word.
enum InterruptNotice {
    /// Runs `body` with the signals trapped; on one, `bar` is ended, `message()` written
    /// to stderr and the process ended.
    static func run<T>(bar: ProgressBar, message: @escaping @Sendable () -> String, _ body: () throws -> T) rethrows -> T {
        let trap = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in
            bar.finish()
            StandardError.write(message())
            // Not `exit`: its handlers (libcurl's, OpenSSL's) would tear down what the
            // command's threads are still using. Nothing is buffered: the message went
            // straight to the descriptor, and these commands print to stdout only at their end.
            _exit(128 + signal)
        }
        defer { trap.remove() }
        // A process may start with these signals blocked (a parent's mask is inherited):
        // unblocked on this thread, and so on the threads it starts.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// The command line as it was run, quoted to be pasted: what resumes the work.
    static var rerun: String {
        CommandHint.zinc(Array(CommandLine.arguments.dropFirst()))
    }
}
