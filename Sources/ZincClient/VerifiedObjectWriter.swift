import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes one object's stored bytes (raw, or one gzip member) as they stream in, writes
/// the uncompressed content to a scratch file while hashing it, and moves it into
/// `objects/<sha>` only when the SHA-1 and the stored size are what the manifest
/// records, and, for a signed manifest, the SHA-256 its signature records. Nothing
/// unverified ever carries an object's name, so a rerun after a kill can trust every
/// object it finds and skip it.
final class VerifiedObjectWriter {
    private let object: StoredObject
    private let format: ObjectFormat
    private let origin: String
    private let destination: String
    private let scratch: TemporaryFile
    private let decoder: StoredObjectDecoder
    private var storedBytes: Int64 = 0
    private let signedSHA256: SHA256.Digest?
    private let contentHash: SHA256?

    /// - Parameter origin: where the bytes come from (a URL, an archive member), for messages.
    /// - Parameter signedSHA256: the SHA-256 of the content a signature records, if any.
    init(object: StoredObject, format: ObjectFormat, origin: String, repo: Repo, signedSHA256: SHA256.Digest? = nil) throws {
        self.object = object
        self.format = format
        self.origin = origin
        self.signedSHA256 = signedSHA256
        destination = repo.objectFile(object.sha)
        let scratch = try TemporaryFile(in: repo.temporaryFolder, named: object.sha)
        self.scratch = scratch
        let contentHash = signedSHA256.map { _ in SHA256() }
        self.contentHash = contentHash
        decoder = StoredObjectDecoder(format: format) { chunk in
            try scratch.file.write(chunk)
            contentHash?.update(chunk)
        }
    }

    deinit { scratch.remove() }

    var expectedSize: Int64 { object.formats[format] ?? 0 }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        storedBytes += Int64(chunk.count)
        guard storedBytes <= expectedSize else {
            throw ClientError.integrity(url: origin, reason: "longer than the \(expectedSize) bytes the manifest records")
        }
        do { try decoder.update(chunk) } catch let failure as GzipDecompressor.Failure {
            throw ClientError.integrity(url: origin, reason: "not one valid gzip stream (\(failure))")
        }
    }

    /// Verifies and moves the content into objects/.
    func commit() throws {
        guard storedBytes == expectedSize else {
            throw ClientError.truncated(url: origin, received: storedBytes, expected: expectedSize)
        }
        let sha: String
        do { sha = try decoder.finish() } catch let failure as GzipDecompressor.Failure {
            throw ClientError.integrity(url: origin, reason: "not one valid gzip stream (\(failure))")
        }
        guard sha == object.sha else {
            throw ClientError.integrity(url: origin, reason: "its content has SHA-1 \(sha), but the manifest records \(object.sha)")
        }
        if let signedSHA256, let contentHash, case let digest = contentHash.finalize(), digest != signedSHA256 {
            throw ClientError.integrity(
                url: origin,
                reason: "its content has SHA-256 \(digest), but the manifest's signature "
                    + "records \(signedSHA256)")
        }
        // Read-only: bundle files are hard links to objects, and an edit through one would change them all.
        guard fchmod(scratch.file.fd, 0o444) == 0 else { throw ZincError.io(path: scratch.path, operation: "chmod", errno: errno) }
        guard rename(scratch.path, destination) == 0 else {
            throw ZincError.io(path: destination, operation: "move into place", errno: errno)
        }
    }
}
