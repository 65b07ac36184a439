/// Turns an object's stored bytes (raw, or one gzip member) back into its content as
/// they stream in, hashing the content: the one way clone, verify and the client check
/// that an object is what its name says.
package final class StoredObjectDecoder {
    private let hasher = SHA1()
    private let gunzip: GzipDecompressor?
    private let content: ((UnsafeRawBufferPointer) throws -> Void)?

    /// - Parameters:
    ///   - format: how the object is stored.
    ///   - content: receives the uncompressed content, chunk by chunk.
    package init(format: ObjectFormat, content: ((UnsafeRawBufferPointer) throws -> Void)? = nil) {
        self.content = content
        let hasher = hasher
        gunzip =
            format == .gz
            ? GzipDecompressor { chunk in
                hasher.update(chunk)
                try content?(chunk)
            } : nil
    }

    /// Takes the next stored bytes; a damaged gzip stream throws `GzipDecompressor.Failure`.
    package func update(_ stored: UnsafeRawBufferPointer) throws {
        if let gunzip {
            try gunzip.update(stored)
        } else {
            hasher.update(stored)
            try content?(stored)
        }
    }

    /// The SHA-1 of the content; an unfinished gzip stream throws `GzipDecompressor.Failure`.
    package func finish() throws -> String {
        try gunzip?.finish()
        return hasher.finalize()
    }
}
