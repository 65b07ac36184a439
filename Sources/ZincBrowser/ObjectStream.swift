import Zinc
import ZincServer

/// An object's content as it is read and decompressed, a chunk per call, checked
/// against its SHA-1 at the end: a damaged object ends its response early (the server
/// then closes the connection) rather than completing it with wrong bytes.
///
/// Unchecked: `reader` changes, but `DynamicBodyStream` is called one call at a time.
final class ObjectStream: DynamicBodyStream, @unchecked Sendable {
    private var reader: StorageReader?
    private let decoder: StoredObjectDecoder
    private let output: Output
    private let object: StoredObject
    private let path: String
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)

    /// Small stored chunks bound the bytes one gzip chunk can expand to.
    static let chunkSize = 32 << 10

    private final class Output {
        var bytes = [UInt8]()
    }

    /// Nil when the object's file is missing.
    init?(_ object: StoredObject, in storage: CatalogStorage) throws {
        guard let reader = try storage.openForReading(object.preferredPath) else {
            buffer.deallocate()
            return nil
        }
        let output = Output()
        self.reader = reader
        self.output = output
        self.object = object
        self.path = storage.location + "/" + object.preferredPath
        decoder = StoredObjectDecoder(format: object.preferredFormat) { output.bytes.append(contentsOf: $0) }
    }

    deinit { buffer.deallocate() }

    func next() throws -> [UInt8]? {
        while output.bytes.isEmpty {
            guard let reader else { return nil }
            let count = try reader.read(into: buffer)
            if count == 0 {
                self.reader = nil
                guard try decoder.finish() == object.sha else {
                    throw ZincError.integrity(path: path, reason: "its content does not hash to its name")
                }
            } else {
                try decoder.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        }
        defer { output.bytes.removeAll(keepingCapacity: true) }
        return output.bytes
    }

    func close() {
        reader = nil
    }

    /// Up to `limit` bytes of the content from the start, for a text preview; whether
    /// there was more.
    func prefix(_ limit: Int) throws -> (bytes: [UInt8], truncated: Bool) {
        var bytes = [UInt8]()
        while bytes.count < limit, let chunk = try next() { bytes += chunk }
        defer { close() }
        return bytes.count > limit ? (Array(bytes.prefix(limit)), true) : (bytes, reader != nil)
    }
}
