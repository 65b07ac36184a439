#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file front to back, handing over its holes (the ranges a sparse file stores
/// as nothing) as zeros without asking the kernel to read them. Reading a hole is not
/// free: the kernel fills a page-cache page with zeros for every 4 KiB of it and then
/// copies it out, which made a 9 GiB sparse file cost more system time than hashing
/// took. Where the file system cannot say where the data is, the file is simply read.
package final class SparseReader {
    let file: PosixFile
    private var position: Int64 = 0
    /// The run being read: zeros from `position` up to `dataStart`, then data up to
    /// `dataEnd`, where the next hole begins.
    private var dataStart: Int64 = 0
    private var dataEnd: Int64 = 0
    /// Set once a read met the end of the file, so that reads after it (the last one of
    /// `forEachChunk`) answer 0 without a system call.
    private var atEnd = false

    package init(_ file: PosixFile) {
        self.file = file
    }

    /// Fills `buffer` unless the file ends first; returns how many bytes it holds.
    package func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var count = 0
        while count < buffer.count, !atEnd {
            if position >= dataEnd { try findNextRun() }
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
            let n: Int
            if position < dataStart {
                n = Int(min(Int64(rest.count), dataStart - position))
                rest.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: n)
            } else {
                n = try file.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: rest.prefix(Int(min(Int64(rest.count), dataEnd - position)))),
                    at: position)
                if n == 0 {
                    atEnd = true
                    break
                }
            }
            count += n
            position += Int64(n)
        }
        return count
    }

    private func findNextRun() throws {
        let data = lseek(file.fd, off_t(position), Self.seekData)
        if data >= 0 {
            let hole = lseek(file.fd, data, Self.seekHole)
            guard hole >= 0 else { throw ZincError.io(path: file.path, operation: "seek", errno: errno) }
            (dataStart, dataEnd) = (Int64(data), Int64(hole))
        } else if errno == ENXIO {
            // No data from here on: zeros up to the end, then plain reads, which see the
            // end of the file, or whatever was appended meanwhile.
            (dataStart, dataEnd) = (max(position, Int64(try file.status().st_size)), .max)
        } else {
            // The file system does not track holes (or the file is not seekable).
            (dataStart, dataEnd) = (position, .max)
        }
    }

    #if os(Linux)
    private static let seekData = KernelCalls.seekData
    private static let seekHole = KernelCalls.seekHole
    #else
    private static let seekData = SEEK_DATA
    private static let seekHole = SEEK_HOLE
    #endif
}

/// Streamed like any stored file (`forEachChunk`), each read filling its buffer.
extension SparseReader: StorageReader {
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try readFully(into: buffer)
    }
}
