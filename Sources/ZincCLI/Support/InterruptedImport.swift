import Zinc
import ZincServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an import says when Ctrl-C (or SIGTERM) stops it: whether its version was
/// committed and, if not, what it leaves for `clean`; then the process exits with 128
/// plus the signal's number, as a shell reports a process the signal killed.
enum InterruptedImport {
    /// Runs `body` (the import, writing through `interruption.storage`) with the signals
    /// trapped; `bar` is ended before the message is written.
    static func run<T>(
        _ interruption: ImportInterruption, bundle: String, catalog: CatalogReference, bar: ProgressBar, _ body: () throws -> T
    ) rethrows -> T {
        let trap = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in
            bar.finish()
            StandardError.write(message(stopping: interruption, bundle: bundle, catalog: catalog))
            // Not `exit`: its handlers (libcurl's, OpenSSL's) would tear down what the
            // import's threads are still using. Nothing is buffered: the message went
            // straight to the descriptor, and an import prints to stdout only at its end.
            _exit(128 + signal)
        }
        defer { trap.remove() }
        // A process may start with these signals blocked (a parent's mask is inherited):
        // unblocked on this thread, and so on the import's threads it starts.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// The message, after stopping the import's commits.
    static func message(stopping interruption: ImportInterruption, bundle: String, catalog: CatalogReference) -> String {
        do {
            switch try interruption.stop() {
            case .committed(let name, let version):
                return "zinc: interrupted after version \(version) of '\(name)' was committed: the catalog lists it\n"
            case .notCommitted(let files, let bytes, let recordedAt):
                var text = "zinc: interrupted: no version of '\(bundle)' was committed; the catalog lists what it listed before\n"
                if let recordedAt, files > 0 {
                    let removable = recordedAt.addingTimeInterval(Catalog.indexCacheLifetime.inSeconds)
                    text +=
                        "zinc: the \(Clean.files(files)) (\(HumanFormat.bytes(bytes))) this import wrote are recorded as never listed; "
                        + "\(catalog.hint("clean", "--force")) removes them from \(GraceOption.describe(removable))\n"
                }
                return text
            }
        } catch {
            return
                "zinc: interrupted; could not tell whether the version of '\(bundle)' was committed (\(error)); run \(catalog.hint("verify"))\n"
        }
    }
}
