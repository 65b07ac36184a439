import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A catalog in a local folder (`file://`), for catalogs on a shared drive and for tests.
/// The validator is size and modification time, so `If-None-Match` works as over HTTP.
public final class FileCatalogSource: CatalogSource, @unchecked Sendable {
    public let url: String
    private let root: String

    public init(url: String, root: String) {
        self.url = url
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    public func fetch(_ path: String, range: Range<Int64>?, etag: String?, limit: Int64, into sink: PosixFile) throws -> FetchResponse {
        let location = location(of: path)
        let file: PosixFile
        do {
            file = try PosixFile.openForReading(root + "/" + path)
        } catch ZincError.io(_, _, let code) where code == ENOENT || code == ENOTDIR {
            throw ClientError.notFound(url: location)
        }
        let status = try file.status()
        let size = Int64(status.st_size)
        let validator = "\"\(size)-\(status.modificationTime.tv_sec).\(status.modificationTime.tv_nsec)\""
        if let etag, etag == validator, range == nil {
            return FetchResponse(status: .notModified, etag: validator, written: 0, received: 0)
        }
        if range == nil, size > limit { throw ClientError.tooLarge(url: location, limit: limit) }
        let start = range?.lowerBound ?? 0
        var remaining = max(0, min(range?.upperBound ?? size, size) - start)
        guard lseek(file.fd, off_t(start), SEEK_SET) >= 0 else { throw ZincError.io(path: file.path, operation: "seek", errno: errno) }
        var written: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while remaining > 0 {
            let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), remaining))]))
            if n == 0 { break }
            try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            written += Int64(n)
            remaining -= Int64(n)
        }
        return FetchResponse(status: .content, etag: validator, written: written, received: written)
    }
}
