import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a client checks of a catalog tracked with trusted keys, before using any of it:
/// the index signature (by a trusted key, covering the index read, not expired, its
/// sequence not below the last accepted) and each manifest's signature (covering the
/// manifest, listing the SHA-256 its objects' content must have). Every refusal is a
/// `ClientError.untrusted` naming the catalog, the file and the reason.
struct SignatureChecks {
    let catalog: String
    let keys: [PublicKey]
    let chain: SourceChain

    /// The index signature the repo kept from its last sync, and the validators its
    /// sources sent with it.
    struct KeptSignature {
        let bytes: [UInt8]
        let etags: [String: String]
    }

    /// An index whose signature passed every check.
    struct CheckedIndex: Sendable {
        let signature: IndexSignature
        /// The plain bytes of the index the signature covers.
        let index: [UInt8]
        /// The signature file, the URL that served it and its ETag, when it was fetched
        /// rather than kept: what the repo keeps for the next check.
        let fetched: (bytes: [UInt8], url: String, etag: String?)?
    }

    /// Checks the index signature against `index` (the plain bytes of the index read) and
    /// returns it. With `kept`, the signature is asked for with `If-None-Match` and, where
    /// unchanged, the kept bytes are checked as if fetched (its expiry against today). When
    /// the signature covers another index, `refetch` gets both again once, unconditionally
    /// (a writer may have been between its two writes, or caches hold different ages), and
    /// its index is checked instead; `refetch` returns nil to keep `index`. With
    /// `acceptExpired`, an expired signature is taken (a seed's, as old as the app that
    /// ships it, whose catalog the next sync checks).
    func checkIndex(
        _ index: [UInt8], lastSequence: Int64?, kept: KeptSignature? = nil, acceptExpired: Bool = false,
        refetch: () async throws -> [UInt8]?
    ) async throws -> CheckedIndex {
        var index = index
        var (signature, url, fetched) = try await indexSignature(kept: kept)
        if signature.indexSHA256 != SHA256.digest(index), let again = try await refetch() {
            index = again
            (signature, url, fetched) = try await indexSignature(kept: nil)
        }
        let file = catalogFileURL(url, IndexSignature.path)
        guard signature.indexSHA256 == SHA256.digest(index) else {
            throw ClientError.untrusted(
                catalog: catalog, file: catalogFileURL(url, IndexFetcher.remotePath),
                reason: "the index signature covers another index (tampered, or changed by a tool that does not sign)")
        }
        guard signature.catalog == catalog else {
            throw ClientError.untrusted(catalog: catalog, file: file, reason: "it signs catalog '\(signature.catalog)'")
        }
        let now = Int64(Date().timeIntervalSince1970)
        if !acceptExpired, signature.isExpired(at: now) {
            throw ClientError.rolledBack(
                catalog: catalog, file: file,
                reason: "the index signature expired \(now - signature.expiresAt) seconds ago (a frozen catalog)")
        }
        if let lastSequence, signature.sequence < lastSequence {
            throw ClientError.rolledBack(
                catalog: catalog, file: file,
                reason: "its sequence number \(signature.sequence) is below \(lastSequence), "
                    + "the last one accepted (a rollback to an older index)")
        }
        return CheckedIndex(signature: signature, index: index, fetched: fetched)
    }

    /// The index signature, the source URL that served it (the catalog's where the kept
    /// one is still current) and, when fetched, its file.
    private func indexSignature(kept: KeptSignature?) async throws
        -> (IndexSignature, String, (bytes: [UInt8], url: String, etag: String?)?)
    {
        let fetched: (bytes: [UInt8], url: String, etag: String?)
        switch try await fetch(IndexSignature.path, limit: IndexSignature.sizeLimit, etags: kept?.etags ?? [:]) {
        case .missing:
            throw ClientError.untrusted(catalog: catalog, file: IndexSignature.path, reason: "missing: the catalog is not signed")
        case .notModified:
            // Kept bytes damaged since are no reason to refuse the catalog: fetch them again.
            if let kept, let signature = try? IndexSignature.verified(kept.bytes, path: IndexSignature.path, trusted: keys) {
                return (signature, chain.catalog, nil)
            }
            return try await indexSignature(kept: nil)
        case .fetched(let bytes, let url, let etag):
            fetched = (bytes, url, etag)
        }
        let file = catalogFileURL(fetched.url, IndexSignature.path)
        return (try refusing(file) { try IndexSignature.verified(fetched.bytes, path: file, trusted: keys) }, fetched.url, fetched)
    }

    /// What a signature is checked against: a manifest read as a stream, known by its
    /// header, its number of files and the SHA-256 of its plain JSON, and the file that
    /// holds that JSON (read again only by the manifest-signature fallback).
    struct ManifestFacts {
        let catalog: String
        let bundle: String
        let version: Int
        let fileCount: Int
        let sha256: SHA256.Digest
        /// The plain JSON.
        let file: String
        /// The manifest's catalog-relative path (`manifests/B-V.json`), for messages.
        var path: String { VersionFiles(bundle: bundle, version: version).manifest }
    }

    /// The signature of a manifest by the first trusted key that signed it, checked to
    /// cover it: the SHA-256 its objects' content must have. With `digests`, a version
    /// signature and the digest list it covers come first (kilobytes per update where the
    /// manifest signature costs 113 bytes per object, and nothing held per file); without
    /// them, or with anything wrong with them (`fallBack` is told what), the manifest
    /// signature, as a catalog signed before version signatures has, whose objects are
    /// checked against the manifest's by reading its file again as a stream.
    func checkManifest(
        _ manifest: ManifestFacts, digests: DigestListFetcher? = nil, fallBack: (String) -> Void = { _ in }
    ) async throws -> SignedContent {
        if let digests, let content = try await versionSigned(manifest, digests: digests, fallBack: fallBack) {
            return content
        }
        for key in keys {
            let path = ManifestSignature.path(bundle: manifest.bundle, version: manifest.version, keyID: key.id)
            guard case .fetched(let signatureBytes, let url, _) = try await fetch(path, limit: ManifestSignature.sizeLimit) else {
                continue
            }
            let file = catalogFileURL(url, path)
            let signature = try refusing(file) { try ManifestSignature.verified(signatureBytes, path: file, trusted: keys) }
            let manifestURL = catalogFileURL(url, manifest.path)
            try refusing(manifestURL) {
                try signature.check(
                    coversManifestOf: manifest.catalog, bundle: manifest.bundle, version: manifest.version, sha256: manifest.sha256,
                    path: manifestURL)
                var named = Set<SHA1.Digest>()
                _ = try Manifest.parse(StreamedDocument(path: manifest.file, name: manifestURL, gzipped: false)) { _, entry in
                    named.insert(entry.object.digest)
                }
                try SignedManifest.check(signature.objects, are: named, path: manifestURL)
            }
            return SignedContent(objects: signature.objects, path: file)
        }
        throw ClientError.untrusted(
            catalog: catalog, file: manifest.path,
            reason: "no signature by a trusted key (key ids \(keys.map(\.id).joined(separator: ", "))): the manifest is not signed")
    }

    /// The digest list of the first trusted key's version signature, once it is checked
    /// to cover the manifest; nil when there is none, or it or its list is refused.
    private func versionSigned(
        _ manifest: ManifestFacts, digests: DigestListFetcher, fallBack: (String) -> Void
    ) async throws -> SignedContent? {
        for key in keys {
            let path = VersionSignature.path(bundle: manifest.bundle, version: manifest.version, keyID: key.id)
            guard case .fetched(let signatureBytes, let url, _) = try await fetch(path, limit: VersionSignature.sizeLimit) else {
                continue
            }
            let file = catalogFileURL(url, path)
            do {
                let signature = try VersionSignature.verified(signatureBytes, path: file, trusted: keys)
                try signature.check(
                    coversManifestOf: manifest.catalog, bundle: manifest.bundle, version: manifest.version, sha256: manifest.sha256,
                    fileCount: manifest.fileCount, path: file)
                return try await digests.content(signedBy: signature, catalog: manifest.catalog, fallBack: fallBack)
            } catch let error as ZincError {
                fallBack("\(error)")
                return nil
            }
        }
        return nil
    }

    private enum Document {
        case fetched(bytes: [UInt8], url: String, etag: String?)
        /// Every validator in `etags` still holds at the first source that answered.
        case notModified
        /// No source has it.
        case missing
    }

    /// A signature file of at most `limit` bytes and the URL of the source that served it.
    private func fetch(_ path: String, limit: Int, etags: [String: String] = [:]) async throws -> Document {
        do {
            guard let document = try await chain.fetchDocument(path, etags: etags, limit: Int64(limit), gzipped: false) else {
                return .notModified
            }
            return .fetched(bytes: document.bytes, url: document.url, etag: document.etag)
        } catch let error as ClientError {
            if error.sourceFailures != nil { return .missing }
            guard error.isMissingFile else { throw error }
            return .missing
        }
    }

    private func refusing<T>(_ file: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ZincError {
            guard error.code == .invalidSignature || error.code == .corruptFile, let reason = error.reason else { throw error }
            throw ClientError.untrusted(catalog: catalog, file: file, reason: reason)
        }
    }
}
