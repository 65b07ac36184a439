#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Zinc

/// Takes one object's stored bytes (raw, or one gzip member) as they stream in, writes
/// the uncompressed content to a scratch file while hashing it, and moves it into
/// `objects/<sha>` only when the SHA-1 and the stored size are what the manifest
/// records. Nothing unverified ever carries an object's name, so a rerun after a kill
/// can trust every object it finds and skip it.
final class VerifiedObjectWriter {
    private let object: StoredObject
    private let format: ObjectFormat
    private let origin: String
    private let destination: String
    private let scratch: TemporaryFile
    private let hasher = SHA1()
    private var gunzip: GzipDecompressor?
    private var storedBytes: Int64 = 0

    /// - Parameter origin: where the bytes come from (a URL, an archive member), for messages.
    init(object: StoredObject, format: ObjectFormat, origin: String, repo: Repo) throws {
        self.object = object
        self.format = format
        self.origin = origin
        destination = repo.objectFile(object.sha)
        scratch = try TemporaryFile(in: repo.temporaryFolder, named: object.sha)
        if format == .gz {
            let (hasher, file) = (hasher, scratch.file)
            gunzip = GzipDecompressor { chunk in
                hasher.update(chunk)
                try file.write(chunk)
            }
        }
    }

    deinit { scratch.remove() }

    var expectedSize: Int64 { object.formats[format] ?? 0 }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        storedBytes += Int64(chunk.count)
        guard storedBytes <= expectedSize else {
            throw ClientError.integrity(url: origin, reason: "longer than the \(expectedSize) bytes the manifest records")
        }
        if let gunzip {
            do { try gunzip.update(chunk) } catch let failure as GzipDecompressor.Failure {
                throw ClientError.integrity(url: origin, reason: "not one valid gzip stream (\(failure))")
            }
        } else {
            hasher.update(chunk)
            try scratch.file.write(chunk)
        }
    }

    /// Verifies and moves the content into objects/.
    func commit() throws {
        guard storedBytes == expectedSize else {
            throw ClientError.truncated(url: origin, received: storedBytes, expected: expectedSize)
        }
        if let gunzip {
            do { try gunzip.finish() } catch let failure as GzipDecompressor.Failure {
                throw ClientError.integrity(url: origin, reason: "not one valid gzip stream (\(failure))")
            }
        }
        let sha = hasher.finalize()
        guard sha == object.sha else {
            throw ClientError.integrity(url: origin, reason: "its content has SHA-1 \(sha), but the manifest records \(object.sha)")
        }
        // Read-only: bundle files are hard links to objects, and an edit through one would change them all.
        guard fchmod(scratch.file.fd, 0o444) == 0 else { throw ZincError.io(path: scratch.path, operation: "chmod", errno: errno) }
        guard rename(scratch.path, destination) == 0 else {
            throw ZincError.io(path: destination, operation: "move into place", errno: errno)
        }
    }
}
