/// Reads a ustar stream member by member, streaming each member's data in chunks so
/// memory stays flat whatever the archive's size. It reads whole archives (`verify`)
/// as well as prefixes of them: a client holding version v fetches only the LMFO
/// front of an archive with one range request, so a stream that simply stops is an
/// expected ending, told apart from a complete archive by `ending`.
package final class TarReader {
    /// One member as its header describes it.
    package struct Member: Equatable, Sendable {
        package let name: String
        package let size: Int64
        /// The ustar type flag; Zinc archives hold only regular files (`0`).
        package let typeFlag: UInt8
        /// Where the member's header starts in the stream.
        package let offset: Int64

        /// Old tars mark regular files with NUL instead of `0`.
        package var isRegularFile: Bool { typeFlag == UInt8(ascii: "0") || typeFlag == 0 }
    }

    /// Why `next()` returned nil.
    package enum Ending: Equatable, Sendable {
        /// The end-of-archive block was read: the archive is complete.
        case endOfArchive
        /// The stream stopped where a header would start (or inside the padding after
        /// a complete member): a prefix of an archive, or one cut at a member boundary.
        case endOfStream
        /// The stream stopped inside a header or inside a member's data.
        case truncated
    }

    /// Set once `next()` has returned nil (or `readData` ran out of stream).
    package private(set) var ending: Ending?
    /// How many bytes of the stream have been consumed.
    package private(set) var position: Int64 = 0

    private let source: StorageReader
    private let path: String
    private let buffer: UnsafeMutableRawBufferPointer
    private var bufferStart = 0
    private var bufferEnd = 0
    /// Unread data and padding of the member `next()` returned last.
    private var remainingData: Int64 = 0
    private var remainingPadding: Int64 = 0

    /// - Parameters:
    ///   - source: the archive's bytes, from its start.
    ///   - path: names the stream in error messages.
    ///   - bufferSize: how many bytes to read at a time.
    package init(_ source: StorageReader, path: String, bufferSize: Int = 1 << 16) {
        self.source = source
        self.path = path
        buffer = .allocate(byteCount: max(bufferSize, TarHeader.blockSize), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The next member's header, skipping whatever of the previous member's data was not
    /// read; nil at the end, with `ending` saying which end. A damaged header (bad
    /// checksum, unreadable size) throws: nothing after it can be located.
    package func next() throws -> Member? {
        guard ending == nil else { return nil }
        if try skip(remainingData) < remainingData {
            ending = .truncated
            return nil
        }
        if try skip(remainingPadding) < remainingPadding {
            ending = .endOfStream
            return nil
        }
        remainingData = 0
        remainingPadding = 0

        let offset = position
        var header = [UInt8]()
        header.reserveCapacity(TarHeader.blockSize)
        try consume(Int64(TarHeader.blockSize)) { header.append(contentsOf: $0) }
        if header.count < TarHeader.blockSize {
            ending = header.isEmpty ? .endOfStream : .truncated
            return nil
        }
        if header.allSatisfy({ $0 == 0 }) {
            ending = .endOfArchive
            return nil
        }
        guard Self.checksumMatches(header) else {
            throw ZincError.corruptFile(path: path, reason: "the tar header at byte \(offset) has a bad checksum")
        }
        guard let size = TarHeader.decodeSize(header[124..<136]), size >= 0 else {
            throw ZincError.corruptFile(path: path, reason: "the tar header at byte \(offset) has an unreadable size")
        }
        guard size <= Manifest.maximumObjectSize else {
            throw ZincError.corruptFile(
                path: path,
                reason: "the tar header at byte \(offset) gives a size of \(size) bytes, "
                    + "above the largest object (\(Manifest.maximumObjectSize))")
        }
        remainingData = size
        remainingPadding = TarHeader.paddedLength(size) - size
        return Member(name: Self.name(of: header), size: size, typeFlag: header[156], offset: offset)
    }

    /// Streams the rest of the current member's data through `body`. Returns false when
    /// the stream ends before the member does (`ending` is then `.truncated`).
    @discardableResult
    package func readData(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let wanted = remainingData
        let delivered = try consume(wanted, body)
        remainingData -= delivered
        if delivered < wanted {
            ending = .truncated
            return false
        }
        return true
    }

    /// Passes up to `count` bytes of the stream through `body`; returns how many there were.
    @discardableResult
    private func consume(_ count: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var done: Int64 = 0
        while done < count {
            if bufferStart == bufferEnd {
                bufferStart = 0
                bufferEnd = try source.read(into: buffer)
                if bufferEnd == 0 { break }
            }
            let n = Int(min(Int64(bufferEnd - bufferStart), count - done))
            try body(UnsafeRawBufferPointer(rebasing: buffer[bufferStart..<(bufferStart + n)]))
            bufferStart += n
            done += Int64(n)
            position += Int64(n)
        }
        return done
    }

    private func skip(_ count: Int64) throws -> Int64 {
        try consume(count) { _ in }
    }

    /// The checksum field holds the sum of the header's bytes with the field itself
    /// counted as spaces. Some historic writers summed signed bytes; tar accepts both.
    static func checksumMatches(_ header: [UInt8]) -> Bool {
        let field = header[148..<156].prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard let recorded = Int(String(decoding: field, as: UTF8.self), radix: 8) else { return false }
        var unsigned = 0
        var signed = 0
        for (i, byte) in header.enumerated() {
            let value = (148..<156).contains(i) ? UInt8(ascii: " ") : byte
            unsigned += Int(value)
            signed += Int(Int8(bitPattern: value))
        }
        return recorded == unsigned || recorded == signed
    }

    /// The member name, with the ustar prefix field when a writer used it for a long path.
    static func name(of header: [UInt8]) -> String {
        let name = String(decoding: header[0..<100].prefix { $0 != 0 }, as: UTF8.self)
        guard header[257..<262].elementsEqual("ustar".utf8) else { return name }
        let prefix = header[345..<500].prefix { $0 != 0 }
        return prefix.isEmpty ? name : String(decoding: prefix, as: UTF8.self) + "/" + name
    }
}
