#if os(Linux)
import Glibc

/// Counts how many times a file is opened while it is watched (Linux's inotify), by this
/// process or any other: how a test sees that a file was read once, where a time would
/// depend on the machine's load.
public final class FileOpens {
    private let watch: Int32
    private var seen = 0

    /// Starts watching `path`, which must exist.
    public init(_ path: String) throws {
        watch = inotify_init1(O_NONBLOCK | O_CLOEXEC)
        guard watch >= 0, inotify_add_watch(watch, path, UInt32(IN_OPEN)) >= 0 else {
            let reason = String(cString: strerror(errno))
            if watch >= 0 { close(watch) }
            throw TestServerError("cannot watch '\(path)': \(reason)")
        }
    }

    deinit { close(watch) }

    /// The opens seen since the watch began.
    public var count: Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(watch, $0.baseAddress, $0.count) }
            guard read > 0 else { return seen }
            // Each event: wd, mask, cookie, len (4 bytes each), then a name of len bytes.
            var offset = 0
            while offset + 16 <= read {
                let mask = buffer[(offset + 4)..<(offset + 8)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if mask & UInt32(IN_OPEN) != 0 { seen += 1 }
                let length = buffer[(offset + 12)..<(offset + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
                offset += 16 + length
            }
        }
    }
}
#endif
