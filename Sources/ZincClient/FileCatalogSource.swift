import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A catalog in a local folder (`file://`), for catalogs on a shared drive and for tests.
/// The validator is size and modification time, so `If-None-Match` works as over HTTP.
package final class FileCatalogSource: CatalogSource, Sendable {
    package let url: String
    private let root: String

    package init(url: String, root: String) {
        self.url = url
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    package func fetch(_ request: FetchRequest, into sink: FetchSink) throws -> FetchResponse {
        let location = location(of: request.path)
        let file: PosixFile
        do {
            file = try PosixFile.openForReading(root + "/" + request.path)
        } catch let error as ZincError where error.errno == ENOENT || error.errno == ENOTDIR {
            throw ClientError.notFound(url: location)
        }
        let status = try file.status()
        let size = Int64(status.st_size)
        let validator = "\"\(size)-\(status.modificationTime.tv_sec).\(status.modificationTime.tv_nsec)\""
        if request.ranges.isEmpty {
            if let etag = request.etag, etag == validator {
                return FetchResponse(status: .notModified, etag: validator, written: 0, received: 0)
            }
            guard size <= request.limit else { throw ClientError.tooLarge(url: location, limit: request.limit) }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var written: Int64 = 0
        // Each range as far as the file goes, like a server's parts; a range past the end
        // ends the answer, as a connection would.
        for range in request.ranges.isEmpty ? [0..<size] : request.ranges {
            var position = range.lowerBound
            let end = min(range.upperBound, size)
            while position < end {
                try request.cancellation?.check()
                let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), end - position))])
                let n = try file.read(into: slice, at: position)
                if n == 0 { break }
                try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                written += Int64(n)
                position += Int64(n)
            }
            if position < range.upperBound { break }
        }
        let answer: FetchResponse.RangeAnswer? = request.ranges.count > 1 ? .multipart : request.ranges.isEmpty ? nil : .singlePart
        return FetchResponse(status: .content, etag: validator, written: written, received: written, rangeAnswer: answer)
    }
}
