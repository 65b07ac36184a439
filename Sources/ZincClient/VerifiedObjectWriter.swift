import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes one object's stored bytes (raw, or one gzip member) as they stream in, writes
/// the uncompressed content to a scratch file while hashing it (`ScratchFile`: unnamed in
/// `objects/` on Linux, so an object costs no name made and renamed away), and gives it
/// the name `objects/<sha>` only when the SHA-1 and the stored size are what the manifest
/// records, and, for a signed manifest, the SHA-256 its signature records. Nothing
/// unverified ever carries an object's name, so a rerun after a kill can trust every
/// object it finds and skip it. A content large enough to be chunked gets its chunk
/// record (`LocalChunks`) on the way, so a later update can reuse its chunks.
final class VerifiedObjectWriter {
    private let object: StoredObject
    private let format: ObjectFormat
    private let origin: String
    private let destination: String
    private let scratch: ScratchFile
    private let decoder: StoredObjectDecoder
    private var storedBytes: Int64 = 0
    private let verifier: ObjectVerifier
    private let chunks: ChunkRecorder?
    private let repo: Repo

    /// - Parameter origin: where the bytes come from (a URL, an archive member), for messages.
    /// - Parameter signedSHA256: the SHA-256 of the content a signature records, if any.
    init(object: StoredObject, format: ObjectFormat, origin: String, repo: Repo, signedSHA256: SHA256.Digest? = nil) throws {
        self.object = object
        self.format = format
        self.origin = origin
        let verifier = ObjectVerifier(object: object, signedSHA256: signedSHA256, origin: origin)
        self.verifier = verifier
        destination = repo.objectFile(object.sha)
        let scratch = try Self.scratch(for: object.sha, in: repo)
        self.scratch = scratch
        self.repo = repo
        // A gzipped object's content size is unknown until it is inflated.
        let chunks = format == .gz || object.formats[format]! >= ContentChunker.threshold ? ChunkRecorder() : nil
        self.chunks = chunks
        decoder = StoredObjectDecoder(format: format) { chunk in
            chunks?.update(chunk)
            try scratch.file.write(chunk)
            verifier.update(chunk)
        }
    }

    var expectedSize: Int64 { object.formats[format] ?? 0 }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        storedBytes += Int64(chunk.count)
        guard storedBytes <= expectedSize else {
            throw ClientError.integrity(url: origin, reason: "longer than the \(expectedSize) bytes the manifest records")
        }
        do { try decoder.update(chunk) } catch let failure as GzipDecompressor.Failure {
            throw ClientError.integrity(url: origin, reason: "\(failure)")
        }
    }

    /// Verifies and moves the content into objects/.
    func commit() throws {
        guard storedBytes == expectedSize else {
            throw ClientError.truncated(url: origin, received: storedBytes, expected: expectedSize)
        }
        let sha: String
        do { sha = try decoder.finish() } catch let failure as GzipDecompressor.Failure {
            throw ClientError.integrity(url: origin, reason: "\(failure)")
        }
        try verifier.check(sha1: sha)
        try Self.install(scratch, as: destination)
        if let chunks, chunks.size >= ContentChunker.threshold {
            // Only a hint for later updates: one that cannot be written is computed then.
            try? LocalChunks.record(chunks.splitter.finish(), of: object.sha, in: repo)
        }
    }

    /// The file an object's content is written to, read-only from its creation: bundle
    /// files are hard links to objects, and an edit through one would change them all.
    /// Made so, it costs no `fchmod` before it is installed (one system call in ten of a
    /// first sync's objects).
    static func scratch(for sha: String, in repo: Repo) throws -> ScratchFile {
        try ScratchFile(becoming: repo.objectFile(sha), temporaryFolder: repo.temporaryFolder, mode: 0o444)
    }

    /// Gives a verified content (written to a file made by `scratch(for:in:)`) its
    /// object's name. A file already there is replaced: nothing vouches for it. Made
    /// durable with the rest of the version before its folder is switched to
    /// (`BundleCheckout.finish`).
    static func install(_ scratch: ScratchFile, as destination: String) throws {
        _ = try scratch.install(replacing: true)
        FaultInjection.changed(destination)
    }
}

/// The chunks of a content as it is written.
private final class ChunkRecorder {
    var splitter = ChunkSplitter()
    var size: Int64 = 0

    func update(_ bytes: UnsafeRawBufferPointer) {
        splitter.update(bytes)
        size += Int64(bytes.count)
    }
}
