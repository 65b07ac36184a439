import Zinc

/// What an object's content must be before it takes the object's name in `objects/`,
/// however it arrived (fetched, read from an archive, placed from a seed's file): the
/// SHA-1 the manifest records and, for a signed manifest, the SHA-256 its signature
/// records. One check for every way in, so that none of them can accept less.
struct ObjectVerifier {
    let object: StoredObject
    /// The SHA-256 of the content a signature records, if any.
    let signedSHA256: SHA256.Digest?
    /// Where the bytes come from (a URL, an archive member, a seed's file), for messages.
    let origin: String
    /// The content's SHA-256, hashed only when a signature records one.
    private let contentHash: SHA256?

    init(object: StoredObject, signedSHA256: SHA256.Digest?, origin: String) {
        self.object = object
        self.signedSHA256 = signedSHA256
        self.origin = origin
        contentHash = signedSHA256.map { _ in SHA256() }
    }

    /// Takes the next bytes of the content (uncompressed).
    func update(_ content: UnsafeRawBufferPointer) {
        contentHash?.update(content)
    }

    /// Refuses a content whose SHA-1 (`sha1`, hashed by whoever read the content) or
    /// SHA-256 (of the bytes given to `update`) is not what the manifest and its
    /// signature record. Called once, at the end of the content.
    func check(sha1: String) throws {
        guard sha1 == object.sha else {
            throw ClientError.integrity(url: origin, reason: "its content has SHA-1 \(sha1), but the manifest records \(object.sha)")
        }
        if let signedSHA256, let contentHash, case let digest = contentHash.finalize(), digest != signedSHA256 {
            throw ClientError.integrity(
                url: origin, reason: "its content has SHA-256 \(digest), but the manifest's signature records \(signedSHA256)")
        }
    }

    /// Hashes the content of the file at `path` and checks it (see `check`).
    func verify(file path: String) throws {
        let sha1 = SHA1()
        try PosixFile.openForReading(path).forEachChunk { chunk in
            sha1.update(chunk)
            update(chunk)
        }
        try check(sha1: sha1.finalize())
    }
}

extension ObjectVerifier {
    /// The SHA-256 that `signedContent` (nil in a catalog without trusted keys) records
    /// for `object`'s content. A signed sync reads the SHA-256 of the objects it needs
    /// alone, so an object it has none for is refused, never taken unchecked.
    static func signedSHA256(
        of object: StoredObject, in signedContent: [SHA1.Digest: SHA256.Digest]?, origin: String
    ) throws -> SHA256.Digest? {
        guard let signedContent else { return nil }
        guard let digest = signedContent[object.digest] else {
            throw ClientError.integrity(url: origin, reason: "no signed SHA-256 was read for object \(object.sha)")
        }
        return digest
    }
}
