import Zinc

/// Streams an object in ranged GETs of `chunkSize` bytes, so memory stays flat however
/// large the object. Every range after the first asks for the ETag the first one
/// had: an object replaced meanwhile fails the read instead of mixing two versions.
final class S3Reader: StorageReader {
    static let chunkSize: Int64 = 8 << 20

    private let storage: S3Storage
    private let path: String
    private let etag: String?
    private let total: Int64
    private var chunk: [UInt8]
    private var chunkOffset = 0
    /// Where the next chunk starts.
    private var next: Int64

    private init(storage: S3Storage, path: String, etag: String?, total: Int64, first: [UInt8]) {
        self.storage = storage
        self.path = path
        self.etag = etag
        self.total = total
        chunk = first
        next = Int64(first.count)
    }

    /// Fetches the first chunk; nil when the object does not exist.
    static func open(_ path: String, in storage: S3Storage) throws -> S3Reader? {
        let request = S3Request(.get, key: storage.address.key(path), operation: "GET \(path)", range: 0..<chunkSize)
        let response = try storage.client.send(request, limit: Int(chunkSize))
        switch response.status {
        case 206:
            guard let range = response.head.contentRange, range.bytes.lowerBound == 0, let total = range.completeLength else {
                throw ZincError.remote(location: storage.location, reason: "GET \(path): a partial answer without a valid Content-Range")
            }
            return S3Reader(storage: storage, path: path, etag: response.head["etag"], total: total, first: response.body)
        case 200:
            // A server that ignores ranges sends everything, which the limit bounds.
            return S3Reader(
                storage: storage, path: path, etag: response.head["etag"], total: Int64(response.body.count), first: response.body)
        case 416:
            // An empty object has no byte 0 to start a range at.
            return S3Reader(storage: storage, path: path, etag: nil, total: 0, first: [])
        case 404 where storage.client.isMissingKey(response):
            return nil
        default:
            throw storage.client.failure(response, of: request)
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if chunkOffset == chunk.count {
            guard next < total else { return 0 }
            try fetchNext()
        }
        let n = min(buffer.count, chunk.count - chunkOffset)
        chunk.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + chunkOffset, byteCount: n)
        }
        chunkOffset += n
        return n
    }

    private func fetchNext() throws {
        let end = min(total, next + Self.chunkSize)
        var headers = [String: String]()
        if let etag { headers["if-match"] = etag }
        let request = S3Request(.get, key: storage.address.key(path), operation: "GET \(path)", headers: headers, range: next..<end)
        let response = try storage.client.send(request, limit: Int(Self.chunkSize))
        guard response.status == 206, response.head.contentRange?.bytes.lowerBound == next, response.body.count == Int(end - next) else {
            if response.status == 412 {
                throw ZincError.remote(location: storage.location, reason: "\(path) was replaced while it was being read")
            }
            if response.status == 206 {
                throw ZincError.remote(location: storage.location, reason: "GET \(path): the answer is not the range asked for")
            }
            throw storage.client.failure(response, of: request)
        }
        chunk = response.body
        chunkOffset = 0
        next = end
    }
}
