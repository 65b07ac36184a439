/// `signatures/manifests/B-V.json.KEYID.sig`: the publisher's signature of one manifest.
///
/// It covers the SHA-256 of the plain manifest JSON (`manifests/B-V.json`, the same bytes
/// `.json.gz` unpacks to) and, for every object the manifest names, the SHA-256 of the
/// object's uncompressed content beside its SHA-1: a client checks each object against
/// both, so content is authenticated by SHA-256 even though objects are named by SHA-1.
/// Manifests never change, so neither do their signatures: each key writes its own
/// file (the key id is in the name), and a new key signs beside the old one.
package struct ManifestSignature: Equatable, Sendable {
    package static let folder = "signatures/manifests"
    static let kind = "manifest"
    /// One line per object of at most 113 bytes: room for a manifest of 500,000 objects.
    package static let sizeLimit = 64 << 20

    package var catalog: String
    package var bundle: String
    package var version: Int
    package var manifestSHA256: SHA256.Digest
    /// The SHA-256 of each object's content, by the object's SHA-1.
    package var objects: [SHA1.Digest: SHA256.Digest]
    /// The key that signed it; set by `parse`.
    package var keyID = ""

    package init(catalog: String, bundle: String, version: Int, manifestSHA256: SHA256.Digest, objects: [SHA1.Digest: SHA256.Digest]) {
        self.catalog = catalog
        self.bundle = bundle
        self.version = version
        self.manifestSHA256 = manifestSHA256
        self.objects = objects
    }

    /// The catalog-relative path of the signature of one version's manifest by the key `keyID`.
    package static func path(bundle: String, version: Int, keyID: String) -> String {
        "\(folder)/\(bundle)-\(version).json.\(keyID).sig"
    }

    /// The manifest a signature file's path names (`manifests/B-V.json`); nil for a path
    /// that is not a manifest signature's.
    package static func manifestPath(ofSignature path: String) -> String? {
        guard let manifest = SignedManifest.signedName(path, in: folder), manifest.hasSuffix(".json") else { return nil }
        return "manifests/" + manifest
    }

    /// The signature file's bytes, signed with `key`.
    package func encoded(signedBy key: SigningKey) -> [UInt8] {
        var fields = [
            ("catalog", catalog), ("bundle", bundle), ("version", "\(version)"), ("sha", manifestSHA256.hex),
            ("objects", "\(objects.count)"),
        ]
        for (sha1, sha256) in objects.sorted(by: { $0.key < $1.key }) { fields.append(("object", "\(sha1.hex) \(sha256.hex)")) }
        return SignatureFile.encode(kind: Self.kind, fields: fields, key: key)
    }

    /// The signature's content, without checking who signed it (`verified` does both):
    /// for tools and tests that inspect or re-sign one.
    package static func parseUnverified(_ bytes: [UInt8], path: String) throws -> ManifestSignature {
        try parse(bytes, path: path).0
    }

    static func parse(_ bytes: [UInt8], path: String) throws -> (ManifestSignature, SignatureFile) {
        let file = try SignatureFile.parse(bytes, path: path, kind: kind, limit: sizeLimit)
        var fields = SignatureFields(file, path: path)
        let (catalog, bundle, version) = try fields.signedVersion()
        let manifestSHA256 = try fields.sha256("sha")
        let count = try fields.number("objects", in: 0...Int64(sizeLimit / 100))
        // Never more room than the file has lines: the count is the sender's word.
        var objects = [SHA1.Digest: SHA256.Digest](minimumCapacity: min(Int(count), file.fields.count))
        var last: SHA1.Digest?
        for _ in 0..<count {
            let line = try fields.text("object")
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, let sha1 = SHA1.Digest(hex: String(parts[0])), let sha256 = SHA256.Digest(hex: parts[1]) else {
                throw fields.bad("an 'object' line must be 40 and 64 lowercase hex digits, not '\(line.prefix(120))'")
            }
            guard last.map({ $0 < sha1 }) ?? true else { throw fields.bad("objects are not in ascending order of SHA-1 (at \(sha1))") }
            last = sha1
            objects[sha1] = sha256
        }
        try fields.end()
        var signature = ManifestSignature(
            catalog: catalog, bundle: bundle, version: version, manifestSHA256: manifestSHA256,
            objects: objects)
        signature.keyID = file.keyID
        return (signature, file)
    }

    /// The signature in `bytes`, made by one of `trusted`; throws otherwise.
    package static func verified(_ bytes: [UInt8], path: String, trusted: [PublicKey]) throws -> ManifestSignature {
        try SignatureFile.document(bytes, path: path, signedByOneOf: trusted, parse: parse)
    }

    /// Checks that this signature covers `manifest`, whose JSON is `bytes`: the same
    /// version, the same bytes, and exactly its objects.
    package func check(covers manifest: Manifest, bytes: [UInt8], path: String) throws {
        try check(
            coversManifestOf: manifest.catalog, bundle: manifest.bundle, version: manifest.version, sha256: SHA256.digest(bytes),
            path: path)
        try SignedManifest.check(objects, areObjectsOf: manifest, path: path)
    }

    /// Checks that this signature covers the manifest of `catalog` `bundle`-`version`
    /// whose plain JSON has the SHA-256 `sha256`; that its objects are the manifest's is
    /// for the caller to check (`SignedManifest.check(_:are:path:)`).
    package func check(coversManifestOf catalog: String, bundle: String, version: Int, sha256: SHA256.Digest, path: String) throws {
        try SignedManifest.check(
            catalog: self.catalog, bundle: self.bundle, version: self.version, sha256: manifestSHA256,
            coversManifestOf: catalog, bundle: bundle, version: version, sha256: sha256, path: path)
    }
}
