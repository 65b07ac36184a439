#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON document (a manifest) read from a file in pieces of `pieceSize` bytes,
/// gunzipped on the way when the file is gzipped, for `JSONParser` to pull: a manifest of
/// 1,000,000 files is 112 MB of JSON, never held whole. Refused past `limit` plain bytes,
/// and a gzipped one past the size its gzip trailer declares (ISIZE, exact below 4 GiB),
/// with memory flat throughout: a gzip bomb or an endless file stops at its limit. Every
/// error names `name` (the file as the user knows it).
package final class StreamedDocument {
    package let name: String
    private let file: PosixFile
    private let gunzip: GzipDecompressor?
    /// Gunzipped bytes not handed on yet, shared with the decompressor's sink.
    private let pending: Pending
    private var input: UnsafeMutableRawBufferPointer
    private var ended = false
    /// Plain bytes read so far.
    package var count: Int64 { pending.produced }
    /// Given each piece as it is handed on: to copy the plain JSON to a file as it is read.
    private let copy: ((UnsafeRawBufferPointer) throws -> Void)?

    /// Plain bytes handed on per read.
    static let pieceSize = 1 << 16
    /// Compressed bytes inflated per read: deflate expands at most about 1032 times, so a
    /// bomb's piece unpacks to at most 4 MiB.
    static let compressedPieceSize = 1 << 12
    /// The largest manifest read when nothing declares its size: far above the 112 MB of
    /// 1,000,000 files, and still refused before a disk fills.
    package static let absoluteLimit: Int64 = 1 << 30

    /// Bytes read (gunzipped) and not handed on yet, refused past `limit` as they arrive,
    /// before zlib reads on to the end of a bomb.
    private final class Pending {
        var bytes = [UInt8]()
        var start = 0
        var produced: Int64 = 0
        let limit: Int64
        let tooLarge: ZincError

        init(limit: Int64, tooLarge: ZincError) {
            self.limit = limit
            self.tooLarge = tooLarge
        }

        func add(_ piece: UnsafeRawBufferPointer) throws {
            produced += Int64(piece.count)
            guard produced <= limit else { throw tooLarge }
            bytes.append(contentsOf: piece)
        }
    }

    /// The document in the file at `path`, gzipped or plain as `gzipped` says.
    package init(
        path: String, name: String, gzipped: Bool, limit: Int64 = absoluteLimit,
        copy: ((UnsafeRawBufferPointer) throws -> Void)? = nil
    ) throws {
        self.name = name
        let file = try PosixFile.open(path)
        self.file = file
        self.copy = copy
        input = .allocate(byteCount: gzipped ? Self.compressedPieceSize : Self.pieceSize, alignment: 1)
        var limit = limit
        if gzipped {
            let size = Int64(try file.status().st_size)
            var trailer = [UInt8](repeating: 0, count: 4)
            if size >= 18, try trailer.withUnsafeMutableBytes({ try file.readFully(into: $0, at: size - 4) }) == 4 {
                limit = min(limit, trailer.reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) })
            }
        }
        let pending = Pending(
            limit: limit,
            tooLarge: ZincError.corruptFile(
                path: name,
                reason: gzipped
                    ? "unpacks to more than \(limit) bytes (its declared size or the limit)" : "holds more than \(limit) bytes"))
        self.pending = pending
        gunzip = gzipped ? GzipDecompressor { try pending.add($0) } : nil
    }

    deinit { input.deallocate() }

    /// Appends the next piece of the document to `buffer`; false at its end.
    package func read(into buffer: inout [UInt8]) throws -> Bool {
        while pending.start == pending.bytes.count {
            pending.bytes.removeAll(keepingCapacity: pending.bytes.capacity <= 8 * Self.pieceSize)
            pending.start = 0
            if ended { return false }
            let read = try file.read(into: input)
            guard let gunzip else {
                if read == 0 {
                    ended = true
                    return false
                }
                try pending.add(UnsafeRawBufferPointer(rebasing: input[..<read]))
                break
            }
            do {
                if read == 0 {
                    ended = true
                    try gunzip.finish()
                } else {
                    try gunzip.update(UnsafeRawBufferPointer(rebasing: input[..<read]))
                }
            } catch let failure as GzipDecompressor.Failure {
                throw ZincError.corruptFile(path: name, reason: "\(failure)")
            }
        }
        let piece = min(pending.bytes.count - pending.start, Self.pieceSize)
        try pending.bytes.withUnsafeBytes { all in
            let slice = UnsafeRawBufferPointer(rebasing: all[pending.start..<(pending.start + piece)])
            buffer.append(contentsOf: slice)
            try copy?(slice)
        }
        pending.start += piece
        return true
    }
}
