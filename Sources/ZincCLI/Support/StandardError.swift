#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for people (warnings, progress, errors) go to stderr so stdout stays
/// parseable by scripts.
enum StandardError {
    static func write(_ text: String) {
        // Straight to the descriptor, unbuffered like FileHandle was. A failed write (stderr
        // closed) has nowhere to be reported and is dropped.
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { writeDescriptor(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// The C library's `write`, which `StandardError.write` hides by its own name.
private func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
