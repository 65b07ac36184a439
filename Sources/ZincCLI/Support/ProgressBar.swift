import Synchronization
import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress display on stderr for long work (imports, clones, verifies):
///
///     Hashing  [##########..........]  1,200/3,000 files  48.2/120 MB  31.4 MB/s  ETA 0:04
///
/// It draws only when both stdout and stderr are terminals and the user did not ask
/// for `--quiet`, so piped or logged output never holds `\r` lines. Library progress
/// callbacks arrive on worker threads, so every call is safe from any thread; redraws
/// are throttled to ten a second because a redraw per file would cost more than small
/// files take to process. The line fits the terminal's current width: parts are left
/// out, least useful first, rather than letting it wrap into a new line per redraw.
final class ProgressBar: Sendable {
    private struct State {
        var label: String?
        var phaseStart = ContinuousClock.now
        var lastDraw: ContinuousClock.Instant?
        var lastFiles = 0
        var lastLine = ""
        /// Whether the current line holds a drawing that still needs its newline.
        var lineOpen = false
    }

    private let state = Mutex(State())
    private let enabled: Bool
    private static let minimumInterval = Duration.milliseconds(100)
    private static let barWidth = 20

    init(quiet: Bool) {
        enabled = !quiet && isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }

    /// Whether it draws at all: a caller reporting per file can skip building reports
    /// nobody sees (100,000 of them for a tree of small files).
    var isShown: Bool { enabled }

    /// Reports where the work is. `bytes` are the bytes really read or written so far,
    /// which the rate and the time left are computed from. A new `label` (the next
    /// phase) keeps the previous phase's last line on screen and starts a new one. `note`
    /// ends the line, the first part left out when it does not fit.
    func update(_ label: String, files: Int, of totalFiles: Int, bytes: Int64, of totalBytes: Int64, note: String? = nil) {
        guard enabled else { return }
        state.withLock { state in
            let now = ContinuousClock.now
            if label != state.label {
                if state.lineOpen { StandardError.write("\n") }
                state = State(label: label, phaseStart: now)
            }
            // Workers report in whatever order they finish: never draw a step backwards.
            guard files >= state.lastFiles else { return }
            let done = files >= totalFiles
            if !done, let lastDraw = state.lastDraw, now - lastDraw < Self.minimumInterval { return }
            let line = Self.line(
                label, files: files, of: totalFiles, bytes: bytes, of: totalBytes,
                elapsed: now - state.phaseStart, width: Self.terminalWidth(), note: note)
            guard line != state.lastLine else { return }
            state.lastDraw = now
            state.lastFiles = files
            state.lastLine = line
            state.lineOpen = true
            StandardError.write("\r" + line + "\u{1B}[K")
        }
    }

    /// Ends the progress line so that results and errors start on a line of their own.
    /// Call it when the work is over, whether it succeeded or not.
    func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.lineOpen { StandardError.write("\n") }
            state = State()
        }
    }

    /// The line for one redraw, at most `width - 1` characters (the last column would
    /// make some terminals wrap).
    static func line(
        _ label: String, files: Int, of totalFiles: Int, bytes: Int64, of totalBytes: Int64,
        elapsed: Duration, width: Int, note: String? = nil
    ) -> String {
        let seconds = elapsed.inSeconds
        let fraction =
            totalBytes > 0
            ? Double(bytes) / Double(totalBytes)
            : totalFiles > 0 ? Double(files) / Double(totalFiles) : 1
        let filled = min(barWidth, max(0, Int(fraction * Double(barWidth))))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        var counts = "\(HumanFormat.count(files))/\(HumanFormat.count(totalFiles)) files"
        var sizes = totalBytes > 0 ? "\(HumanFormat.bytes(bytes))/\(HumanFormat.bytes(totalBytes))" : nil
        // Bytes arriving while no file is done (an archive, whose files all land at its
        // end): the bytes are the progress, in the place of a count stuck at 0.
        if files == 0, bytes > 0, let moving = sizes {
            (counts, sizes) = (moving, nil)
        }
        let rate = totalBytes > 0 && seconds >= 0.5 ? "\(HumanFormat.bytes(Int64(Double(bytes) / seconds)))/s" : nil
        let time: String?
        if files >= totalFiles {
            time = "in \(HumanFormat.duration(seconds: seconds))"
        } else if seconds >= 1, fraction > 0.001 {
            time = "ETA \(HumanFormat.duration(seconds: seconds * (1 - fraction) / fraction))"
        } else {
            time = nil
        }
        // Most useful first: what is done and how long is left, then sizes, rate, the bar.
        var parts: [(order: Int, text: String)] = [(0, label), (2, counts)]
        if let sizes { parts.append((3, sizes)) }
        if let rate { parts.append((4, rate)) }
        if let time { parts.append((5, time)) }
        parts.append((1, bar))
        if let note { parts.append((6, note)) }
        let byPriority: [Int] = [0, 2, 5, 3, 4, 1, 6]  // orders, in the order they are kept
        for keep in stride(from: byPriority.count, through: 1, by: -1) {
            let kept = Set(byPriority.prefix(keep))
            let text = parts.filter { kept.contains($0.order) }.sorted { $0.order < $1.order }.map(\.text).joined(separator: "  ")
            if text.count < width || keep == 1 { return String(text.prefix(max(1, width - 1))) }
        }
        return label
    }

    /// The terminal's columns now (it may have been resized), or 80 when unknown.
    private static func terminalWidth() -> Int {
        var size = winsize()
        #if canImport(Glibc)
        let status = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size)
        #else
        let status = ioctl(STDERR_FILENO, TIOCGWINSZ, &size)
        #endif
        return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
