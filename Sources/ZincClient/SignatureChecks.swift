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

    /// Checks the index signature against `index` (the plain bytes of the index read) and
    /// returns it. When the signature covers another index, `refetch` gets both again once
    /// (a writer may have been between its two writes, or caches hold different ages) and
    /// its index is checked instead; `refetch` returns nil to keep `index`.
    func checkIndex(_ index: [UInt8], lastSequence: Int64?, refetch: () throws -> [UInt8]?) throws
        -> (signature: IndexSignature, index: [UInt8])
    {
        var index = index
        var (signature, url) = try indexSignature()
        if signature.indexSHA256 != SHA256.digest(index), let again = try refetch() {
            index = again
            (signature, url) = try indexSignature()
        }
        let file = url + "/" + IndexSignature.path
        guard signature.indexSHA256 == SHA256.digest(index) else {
            throw ClientError.untrusted(
                catalog: catalog, file: url + "/" + IndexFetcher.remotePath,
                reason: "the index signature covers another index (tampered, or changed by a tool that does not sign)")
        }
        guard signature.catalog == catalog else {
            throw ClientError.untrusted(catalog: catalog, file: file, reason: "it signs catalog '\(signature.catalog)'")
        }
        let now = Int64(Date().timeIntervalSince1970)
        if signature.isExpired(at: now) {
            throw ClientError.untrusted(
                catalog: catalog, file: file,
                reason: "the index signature expired \(now - signature.expiresAt) seconds ago (a frozen catalog)")
        }
        if let lastSequence, signature.sequence < lastSequence {
            throw ClientError.untrusted(
                catalog: catalog, file: file,
                reason: "its sequence number \(signature.sequence) is below \(lastSequence), "
                    + "the last one accepted (a rollback to an older index)")
        }
        return (signature, index)
    }

    /// The index signature and the source URL that served it.
    private func indexSignature() throws -> (IndexSignature, String) {
        guard let (bytes, url) = try fetch(IndexSignature.path, limit: IndexSignature.sizeLimit) else {
            throw ClientError.untrusted(catalog: catalog, file: IndexSignature.path, reason: "missing: the catalog is not signed")
        }
        let file = url + "/" + IndexSignature.path
        return (try refusing(file) { try IndexSignature.verified(bytes, path: file, trusted: keys) }, url)
    }

    /// The signature of a manifest (whose plain JSON is `bytes`) by the first trusted key
    /// that signed it, checked to cover it: the SHA-256 its objects' content must have.
    func checkManifest(_ manifest: Manifest, bytes: [UInt8]) throws -> [SHA1.Digest: SHA256.Digest] {
        for key in keys {
            let path = ManifestSignature.path(bundle: manifest.bundle, version: manifest.version, keyID: key.id)
            guard let (signatureBytes, url) = try fetch(path, limit: ManifestSignature.sizeLimit) else { continue }
            let file = url + "/" + path
            let signature = try refusing(file) { try ManifestSignature.verified(signatureBytes, path: file, trusted: keys) }
            try refusing(url + "/" + manifest.path) {
                try signature.check(covers: manifest, bytes: bytes, path: url + "/" + manifest.path)
            }
            return signature.objects
        }
        throw ClientError.untrusted(
            catalog: catalog, file: manifest.path,
            reason: "no signature by a trusted key (key ids \(keys.map(\.id).joined(separator: ", "))): the manifest is not signed")
    }

    /// A signature file of at most `limit` bytes and the URL of the source that served
    /// it, or nil when no source has it.
    private func fetch(_ path: String, limit: Int) throws -> ([UInt8], String)? {
        do {
            return try chain.fetchDocument(path, limit: Int64(limit), gzipped: false).map { ($0.bytes, $0.url) }
        } catch let error as ClientError {
            switch error {
            case .notFound, .allSourcesFailed: return nil
            case .httpStatus(_, let status) where status == 403 || status == 404: return nil
            default: throw error
            }
        }
    }

    private func refusing<T>(_ file: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch ZincError.signature(_, let reason) {
            throw ClientError.untrusted(catalog: catalog, file: file, reason: reason)
        } catch ZincError.corruptFile(_, let reason) {
            throw ClientError.untrusted(catalog: catalog, file: file, reason: reason)
        }
    }
}
