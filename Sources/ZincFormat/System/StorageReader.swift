/// A file of a `CatalogStorage` opened for streaming reads.
public protocol StorageReader: AnyObject {
    /// Reads up to `buffer.count` bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension StorageReader {
    /// Streams the rest of the file through `body` in chunks of `chunkSize` bytes, so
    /// memory stays flat whatever the file's size.
    public func forEachChunk(chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try read(into: buffer)
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Reads the rest of the file, however long (small files: configuration, indexes).
    public func readToEnd() throws -> [UInt8] {
        var bytes = [UInt8]()
        try forEachChunk(chunkSize: 1 << 16) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
