import Synchronization
import Zinc
import ZincHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A catalog in an S3-compatible bucket (AWS S3, Cloudflare R2, GCS's S3 API, MinIO,
/// Ceph RGW), below a key prefix.
///
/// How it keeps `CatalogStorage`'s promises:
/// - Atomic commits: an object appears whole when its PUT (or the completion of a
///   multipart upload) succeeds; writers spool their bytes locally until `commit`.
/// - Conditional commits: `ifAbsent` sends `If-None-Match: *`, `ifMatch` sends
///   `If-Match` with the ETag a read returned; the store checks and writes atomically,
///   and 412 (or 409, a concurrent conditional write) means the condition failed. An
///   ETag is a digest of the bytes, so versions track content (`properties`).
/// - Read after write: S3 and its compatibles are strongly consistent for reads and
///   listings after a successful write.
/// - Durability: a write is durable when its request succeeds, so `flush` has nothing to do.
/// - Locks: none in the store, so the import lock is lock objects under `locks/`, and
///   index writers rely on compare-and-swap alone.
/// Every upload carries the `Content-Type` and `Cache-Control` FORMAT.md asks for, and
/// never a `Content-Encoding`.
public final class S3Storage: CatalogStorage {
    public let address: S3Address
    let client: S3Client
    let tuning: S3Tuning
    let lockPolicy: LockPolicy
    /// Why the service refused to copy a part, once it has: every later assembly is
    /// refused at once (see `assemble`), so a run detects and reports it once.
    let copyRefusal = Mutex<String?>(nil)

    /// The time now, which the age of an abandoned write counts to (tests move it).
    let clock: @Sendable () -> Date

    public convenience init(
        address: S3Address, configuration: AWSConfiguration, tuning: S3Tuning = .standard,
        lockPolicy: LockPolicy = .standard
    ) {
        self.init(address: address, configuration: configuration, tuning: tuning, lockPolicy: lockPolicy, clock: Date.init)
    }

    init(
        address: S3Address, configuration: AWSConfiguration, tuning: S3Tuning, lockPolicy: LockPolicy,
        clock: @escaping @Sendable () -> Date
    ) {
        self.address = address
        self.tuning = tuning
        self.lockPolicy = lockPolicy
        self.clock = clock
        client = S3Client(address: address, configuration: configuration, retry: tuning.retry)
    }

    public var location: String { address.description }

    /// Small files are read whole into memory: indexes, manifests, records.
    static let smallFileLimit = 1 << 30

    public func readVersioned(_ path: String) throws -> VersionedContent? {
        let request = S3Request(.get, key: address.key(path), operation: "GET \(path)")
        let response = try client.send(request, limit: Self.smallFileLimit)
        switch response.status {
        case 200:
            guard let etag = response.head["etag"] else {
                throw ZincError.remote(location: location, reason: "GET \(path): the answer has no ETag")
            }
            return VersionedContent(bytes: response.body, version: StorageVersion(etag))
        case 404 where client.isMissingKey(response):
            return nil
        default:
            throw client.failure(response, of: request)
        }
    }

    public func openForReading(_ path: String) throws -> StorageReader? {
        try S3Reader.open(path, in: self)
    }

    public func size(of path: String) throws -> Int64? {
        let request = S3Request(.head, key: address.key(path), operation: "HEAD \(path)")
        let response = try client.send(request)
        switch response.status {
        case 200:
            guard let length = response.head.contentLength else {
                throw ZincError.remote(location: location, reason: "HEAD \(path): the answer has no Content-Length")
            }
            return length
        case 404 where client.isMissingKey(response):
            return nil
        default:
            throw client.failure(response, of: request)
        }
    }

    /// One listing request per thousand keys, with each key's size and ETag.
    public func entries(in folder: String) throws -> [StorageEntry] {
        var entries = [StorageEntry]()
        try listPages(prefix: folderPrefix(folder), delimiter: false) { page in
            for content in page.children("Contents") {
                guard let key = content.value("Key"), let path = address.path(ofKey: key), !Self.isHidden(path),
                    let size = content.value("Size").flatMap(Int64.init), size >= 0
                else { continue }
                entries.append(StorageEntry(path: path, size: size, fingerprint: content.value("ETag").flatMap(Self.md5Fingerprint)))
            }
        }
        return entries.sorted { $0.path < $1.path }
    }

    public func folders(in folder: String) throws -> Set<String> {
        let prefix = folderPrefix(folder)
        var names = Set<String>()
        try listPages(prefix: prefix, delimiter: true) { page in
            for common in page.children("CommonPrefixes") {
                guard let full = common.value("Prefix"), full.hasPrefix(prefix), full.hasSuffix("/") else { continue }
                let name = String(full.dropFirst(prefix.count).dropLast())
                if !name.isEmpty, !name.hasPrefix("."), !name.contains("/") { names.insert(name) }
            }
        }
        return names
    }

    public func delete(_ path: String) throws {
        let request = S3Request(.delete, key: address.key(path), operation: "DELETE \(path)")
        let response = try client.send(request)
        guard [200, 204, 404].contains(response.status) else { throw client.failure(response, of: request) }
    }

    public func makeWriter(for path: String) throws -> StorageWriter {
        S3Writer(path: path, storage: self)
    }

    /// Each call a round trip; an ETag is the MD5 of the bytes of a single PUT, and of
    /// its parts' MD5s for an upload in parts, which one tuning cuts alike: versions
    /// track content.
    public var properties: StorageProperties {
        StorageProperties(
            isRemote: true, parallelRequests: tuning.parallelRequests, versionTracking: .content, listingFingerprint: .md5,
            lockPolicy: lockPolicy)
    }

    /// Every successful request is already durable.
    public func flush() throws {}

    /// Multipart uploads under the prefix begun more than `age` ago: their writers were
    /// killed between the first part and the completion, and the store keeps (and
    /// bills) their parts until they are aborted. Each is sized by a listing of its
    /// parts; one aborted meanwhile is left out. Then the temporary objects of
    /// assemblies written more than `age` ago (see `S3Assembly`).
    public func abandonedWrites(olderThan age: Duration) throws -> [AbandonedWrite] {
        let cutoff = clock().addingTimeInterval(-Double(age.components.seconds))
        let uploads = try MultipartUpload.all(in: self).filter { $0.initiated < cutoff }.compactMap { upload in
            try upload.size(in: self).map { AbandonedWrite(displayPath: upload.displayPath, size: $0, token: upload) }
        }
        return try uploads + abandonedTemporaries(before: cutoff)
    }

    /// Aborts the upload, or deletes the temporary object.
    public func discard(_ write: AbandonedWrite) throws {
        if let temporary = write.token as? TemporaryObject { return try delete(temporary.path) }
        guard let upload = write.token as? MultipartUpload else {
            preconditionFailure("\(write.displayPath) is no upload of an S3Storage")
        }
        try upload.abort(in: self)
    }

    /// The key prefix of everything below a catalog folder ("" for the whole catalog).
    private func folderPrefix(_ folder: String) -> String {
        let trimmed = folder.split(separator: "/").joined(separator: "/")
        return address.key(trimmed.isEmpty ? "" : trimmed + "/")
    }

    /// Calls `page` with each page of a ListObjectsV2 answer.
    func listPages(prefix: String, delimiter: Bool, _ page: (XMLElement) throws -> Void) throws {
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if delimiter { query.append(("delimiter", "/")) }
            if let token { query.append(("continuation-token", token)) }
            let request = S3Request(.get, key: nil, operation: "LIST \(prefix.isEmpty ? "/" : prefix)", query: query)
            let response = try client.send(request)
            guard response.status == 200 else { throw client.failure(response, of: request) }
            guard let result = XMLElement.parse(response.body), result.name == "ListBucketResult" else {
                throw ZincError.remote(location: location, reason: "\(request.operation): the answer is not a ListBucketResult")
            }
            try page(result)
            token = result.value("IsTruncated") == "true" ? result.value("NextContinuationToken") : nil
        } while token != nil
    }

    /// An ETag is the MD5 of the content only for objects uploaded in one PUT: multipart
    /// ETags end in `-N`.
    private static func md5Fingerprint(_ etag: String) -> String? {
        let bare = etag.trimming { $0 == "\"" }
        guard bare.count == 32, bare.allSatisfy(\.isHexDigit) else { return nil }
        return bare.lowercased()
    }

    private static func isHidden(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(".") }
    }
}

/// Sizes and patience for a bucket.
public struct S3Tuning: Sendable {
    /// Files up to this size go up in one PUT; larger ones in parts (one PUT is limited
    /// to 5 GiB, and parts can be resent alone).
    public var multipartThreshold: Int64
    /// The smallest part (S3 requires 5 MiB, except the last).
    public var partSize: Int64
    /// A writer holds up to this many bytes in memory before spooling to a temporary file.
    public var memoryLimit: Int
    /// Parts of one upload in flight at once.
    public var partWorkers: Int
    /// Requests in flight for bulk copies (`publish`).
    public var parallelRequests: Int
    var retry: RetryPolicy

    public static let standard = S3Tuning(
        multipartThreshold: 256 << 20, partSize: 64 << 20, memoryLimit: 8 << 20,
        partWorkers: 4, parallelRequests: 16, retry: .standard)

    /// Tuning with a different multipart threshold and part size (tests use small ones).
    public func with(multipartThreshold: Int64, partSize: Int64) -> S3Tuning {
        var copy = self
        copy.multipartThreshold = multipartThreshold
        copy.partSize = partSize
        return copy
    }

    /// Tuning that gives up after `attempts` tries, waiting `firstDelay` before the second.
    public func with(attempts: Int, firstDelay: Duration) -> S3Tuning {
        var copy = self
        copy.retry = RetryPolicy(attempts: attempts, firstDelay: firstDelay)
        return copy
    }
}
