/// `signatures/versions/B-V.KEYID.sig`: the publisher's signature of one version, a few
/// hundred bytes whatever the version holds.
///
/// It covers what a manifest signature (`ManifestSignature`) covers, the SHA-256 of the
/// plain manifest JSON and of each object's content, the latter through the SHA-256 of
/// the version's digest list (`DigestList`), which a client holding an earlier version's
/// list fetches as a delta. A client that finds it uses it; one that does not (an older
/// catalog, an older client) uses the manifest signature, which is still written beside
/// it, unchanged. Like manifests, it never changes, and each key writes its own.
package struct VersionSignature: Equatable, Sendable {
    package static let folder = "signatures/versions"
    static let kind = "version"
    /// Far more than the file's few lines need.
    package static let sizeLimit = 4096

    package var catalog: String
    package var bundle: String
    package var version: Int
    package var manifestSHA256: SHA256.Digest
    /// How many files (lines) the digest list has.
    package var files: Int
    /// The SHA-256 of the plain digest list.
    package var digestsSHA256: SHA256.Digest
    /// The key that signed it; set by `parse`.
    package var keyID = ""

    package init(
        catalog: String, bundle: String, version: Int, manifestSHA256: SHA256.Digest, files: Int, digestsSHA256: SHA256.Digest
    ) {
        self.catalog = catalog
        self.bundle = bundle
        self.version = version
        self.manifestSHA256 = manifestSHA256
        self.files = files
        self.digestsSHA256 = digestsSHA256
    }

    /// The catalog-relative path of the signature of one version by the key `keyID`.
    package static func path(bundle: String, version: Int, keyID: String) -> String {
        "\(folder)/\(bundle)-\(version).\(keyID).sig"
    }

    /// The manifest a signature file's path names (`manifests/B-V.json`); nil for a path
    /// that is not a version signature's.
    package static func manifestPath(ofSignature path: String) -> String? {
        SignedManifest.signedName(path, in: folder).map { "manifests/\($0).json" }
    }

    /// The signature file's bytes, signed with `key`.
    package func encoded(signedBy key: SigningKey) -> [UInt8] {
        SignatureFile.encode(
            kind: Self.kind,
            fields: [
                ("catalog", catalog), ("bundle", bundle), ("version", "\(version)"), ("sha", manifestSHA256.hex),
                ("files", "\(files)"), ("digests", digestsSHA256.hex),
            ], key: key)
    }

    /// The signature's content, without checking who signed it (`verified` does both).
    package static func parseUnverified(_ bytes: [UInt8], path: String) throws -> VersionSignature {
        try parse(bytes, path: path).0
    }

    static func parse(_ bytes: [UInt8], path: String) throws -> (VersionSignature, SignatureFile) {
        let file = try SignatureFile.parse(bytes, path: path, kind: kind, limit: sizeLimit)
        var fields = SignatureFields(file, path: path)
        let (catalog, bundle, version) = try fields.signedVersion()
        var signature = VersionSignature(
            catalog: catalog, bundle: bundle, version: version,
            manifestSHA256: try fields.sha256("sha"),
            files: Int(try fields.number("files", in: 0...Int64(DigestList.maximumFiles))),
            digestsSHA256: try fields.sha256("digests"))
        try fields.end()
        signature.keyID = file.keyID
        return (signature, file)
    }

    /// The signature in `bytes`, made by one of `trusted`; throws otherwise.
    package static func verified(_ bytes: [UInt8], path: String, trusted: [PublicKey]) throws -> VersionSignature {
        try SignatureFile.document(bytes, path: path, signedByOneOf: trusted, parse: parse)
    }

    /// Checks that this signature covers `manifest`, whose JSON is `bytes`.
    package func check(covers manifest: Manifest, bytes: [UInt8], path: String) throws {
        try check(
            coversManifestOf: manifest.catalog, bundle: manifest.bundle, version: manifest.version, sha256: SHA256.digest(bytes),
            fileCount: manifest.files.count, path: path)
    }

    /// Checks that this signature covers the manifest of `catalog` `bundle`-`version`
    /// whose plain JSON has the SHA-256 `sha256` and which lists `fileCount` files: what
    /// a client that reads the manifest as a stream knows of it.
    package func check(
        coversManifestOf catalog: String, bundle: String, version: Int, sha256: SHA256.Digest, fileCount: Int, path: String
    ) throws {
        try SignedManifest.check(
            catalog: self.catalog, bundle: self.bundle, version: self.version, sha256: manifestSHA256,
            coversManifestOf: catalog, bundle: bundle, version: version, sha256: sha256, path: path)
        guard files == fileCount else {
            throw ZincError.signature(path: path, reason: "lists \(files) files, but the manifest has \(fileCount)")
        }
    }

    /// The objects of `list` (the plain digest list), once checked to be the one this
    /// signature covers, each line paired with its file of `manifest`.
    package func objects(of list: [UInt8], for manifest: Manifest, path: String) throws -> [SHA1.Digest: SHA256.Digest] {
        let digest = SHA256.digest(list)
        guard digest == digestsSHA256 else {
            throw ZincError.signature(
                path: path, reason: "its SHA-256 is \(digest), but the version signature covers \(digestsSHA256) (tampered)")
        }
        return try DigestList.parse(list, path: path).objects(of: manifest, path: path)
    }
}

/// What both kinds of signature of a version check of its manifest, and which manifest a
/// signature file goes with (`clean`, `publish`).
package enum SignedManifest {
    /// The manifest (`manifests/B-V.json`) a manifest or version signature's path names;
    /// nil for any other path.
    package static func path(ofSignature path: String) -> String? {
        ManifestSignature.manifestPath(ofSignature: path) ?? VersionSignature.manifestPath(ofSignature: path)
    }

    /// The part of the name of a signature file in `folder` before `.KEYID.sig`; nil when
    /// the path is not one.
    static func signedName(_ path: String, in folder: String) -> Substring? {
        guard path.hasPrefix(folder + "/"), path.hasSuffix(".sig") else { return nil }
        let name = path.dropFirst(folder.count + 1).dropLast(".sig".count)
        guard let dot = name.lastIndex(of: "."), Hex.decode(name[name.index(after: dot)...], count: 8) != nil else { return nil }
        let signed = name[..<dot]
        guard !signed.isEmpty, !signed.contains("/") else { return nil }
        return signed
    }

    /// Checks that a signature of `catalog` `bundle`-`version` covering `sha256` covers
    /// the manifest of `manifestCatalog` `manifestBundle`-`manifestVersion` whose plain
    /// JSON has the SHA-256 `digest`.
    static func check(
        catalog: String, bundle: String, version: Int, sha256: SHA256.Digest,
        coversManifestOf manifestCatalog: String, bundle manifestBundle: String, version manifestVersion: Int,
        sha256 digest: SHA256.Digest, path: String
    ) throws {
        func bad(_ reason: String) -> ZincError { .signature(path: path, reason: reason) }
        guard catalog == manifestCatalog, bundle == manifestBundle, version == manifestVersion else {
            throw bad(
                "the signature is for \(catalog) \(bundle)-\(version), not \(manifestCatalog) \(manifestBundle)-\(manifestVersion)")
        }
        guard digest == sha256 else {
            throw bad("its SHA-256 is \(digest), but the signature covers \(sha256) (tampered)")
        }
    }

    /// Checks that signed `objects` are exactly the objects `manifest` names.
    static func check(_ objects: [SHA1.Digest: SHA256.Digest], areObjectsOf manifest: Manifest, path: String) throws {
        try check(objects, are: Set(manifest.files.values.map(\.object.digest)), path: path)
    }

    /// Checks that signed `objects` are exactly the objects `named` (a manifest's).
    package static func check(_ objects: [SHA1.Digest: SHA256.Digest], are named: Set<SHA1.Digest>, path: String) throws {
        guard named.count == objects.count, named.allSatisfy({ objects[$0] != nil }) else {
            throw ZincError.signature(path: path, reason: "the signature lists other objects than the manifest names")
        }
    }
}
