import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress display on stderr for long work (imports, clones, verifies):
///
///     Storing  [##########..............]  1200/3000 files  48.2/120.5 MB  31.4 MB/s
///
/// It draws only when both stdout and stderr are terminals and the user did not ask
/// for `--quiet`, so piped or logged output never holds `\r` lines. Library progress
/// callbacks arrive on worker threads, so every call is safe from any thread; redraws
/// are throttled to about ten a second because a redraw per file would cost more than
/// small files take to process.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let minimumInterval: TimeInterval = 0.1
    private let barWidth = 24

    private var label: String?
    private var phaseStart = Date()
    private var lastDraw: Date?
    private var lastFiles = 0
    /// Whether the current line holds a drawing that still needs its newline.
    private var lineOpen = false

    init(quiet: Bool) {
        enabled = !quiet && isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }

    /// Reports where the work is. A new `label` (the next phase) keeps the previous
    /// phase's last line on screen and starts a new one with its own rate.
    func update(_ label: String, files: Int, of totalFiles: Int, bytes: Int64, of totalBytes: Int64) {
        guard enabled else { return }
        lock.withLock {
            let now = Date()
            if label != self.label {
                if lineOpen { StandardError.write("\n") }
                self.label = label
                phaseStart = now
                lastDraw = nil
                lastFiles = 0
            }
            // Workers report in whatever order they finish: never draw a step backwards.
            guard files >= lastFiles else { return }
            let done = files >= totalFiles
            if !done, let lastDraw, now.timeIntervalSince(lastDraw) < minimumInterval { return }
            lastDraw = now
            lastFiles = files
            lineOpen = true
            StandardError.write("\r" + line(label, files: files, of: totalFiles, bytes: bytes, of: totalBytes,
                                            elapsed: now.timeIntervalSince(phaseStart)) + "\u{1B}[K")
        }
    }

    /// Ends the progress line so that results and errors start on a line of their own.
    /// Call it when the work is over, whether it succeeded or not.
    func finish() {
        guard enabled else { return }
        lock.withLock {
            if lineOpen { StandardError.write("\n") }
            lineOpen = false
            label = nil
        }
    }

    private func line(_ label: String, files: Int, of totalFiles: Int, bytes: Int64, of totalBytes: Int64,
                      elapsed: TimeInterval) -> String {
        let fraction = totalBytes > 0 ? Double(bytes) / Double(totalBytes)
            : totalFiles > 0 ? Double(files) / Double(totalFiles) : 1
        let filled = min(barWidth, Int(fraction * Double(barWidth)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        let rate = elapsed > 0 ? Double(bytes) / elapsed : 0
        return "\(label)  [\(bar)]  \(files)/\(totalFiles) files  "
            + "\(Self.megabytes(bytes))/\(Self.megabytes(totalBytes)) MB  \(Self.megabytes(Int64(rate))) MB/s"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }
}
