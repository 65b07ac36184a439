import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A version's manifest: from `manifests/<catalog id>/` when an earlier (perhaps
/// interrupted) run fetched it, otherwise from the catalog, checked to describe the
/// version asked for before it is kept. With `checks` (a catalog with trusted keys), the
/// manifest, even one fetched before, is used only with a valid signature, and comes
/// with the SHA-256 its objects' content must have.
struct ManifestFetcher {
    let repo: Repo
    let limit: Int64
    var checks: SignatureChecks?
    /// Requests in flight at once for a manifest delta from a server that answers one
    /// range per request.
    var parallel = 1

    /// With `earlier`, versions of the bundle whose manifests the repo may hold, the first
    /// held one is brought to `version` by a delta (`ManifestDelta`) before the whole is
    /// fetched (`DeltaFetchedDocument`); a delta that fails in any way, its manifest
    /// refused included, costs the whole manifest. `deltaFallBack` is told why (not when
    /// the catalog has no description), and why a version signature or its digest list was
    /// not used (`DigestListFetcher`). `known` is the kept manifest of `version` when the
    /// caller has read it already (a repair judged the folder with it): not read again.
    func manifest(
        catalog: String, bundle: String, version: Int, earlier: [Int] = [], known: Kept? = nil, via chain: SourceChain,
        deltaFallBack: (String) -> Void = { _ in }
    ) async throws -> Fetched {
        let digests = DigestListFetcher(repo: repo, chain: chain, limit: limit, parallel: parallel, earlier: earlier)
        let document = DeltaFetchedDocument(
            kind: .manifest, catalog: catalog, bundle: bundle, version: version, repo: repo, chain: chain, limit: limit,
            parallel: parallel)
        return try await document.fetch(
            earlier: earlier, fallBack: deltaFallBack,
            kept: { path in
                // The signature covers the JSON: in a signed catalog the rows come from it,
                // not from a table, whose recorded SHA-256 is as easily written as its rows.
                if let known {
                    return Fetched(
                        known.header, known.files,
                        try await checkSignature(known.header, sha256: known.sha256, file: path, digests: digests, deltaFallBack),
                        isKnown: true)
                }
                guard
                    let kept = try VersionTable.kept(
                        catalog: catalog, bundle: bundle, version: version, in: repo, trust: checks == nil ? .nameAndSize : .never,
                        hashing: checks != nil)
                else { return nil }
                return Fetched(
                    kept.header, kept.files,
                    try await checkSignature(kept.header, sha256: kept.sha256, file: path, digests: digests, deltaFallBack))
            },
            fetched: { file, gzipped, url in
                try await keep(
                    file, gzipped: gzipped, url: url, catalog: catalog, bundle: bundle, version: version, digests: digests, deltaFallBack)
            })
    }

    /// A version's manifest, its files in its table file (or held) and, in a signed
    /// catalog, what its signature says each object's content hashes to.
    struct Fetched: Sendable {
        let header: ManifestHeader
        let files: VersionTable
        let signed: SignedContent?
        /// Whether these are the files of the kept manifest the caller gave (`known`).
        let isKnown: Bool

        init(_ header: ManifestHeader, _ files: VersionTable, _ signed: SignedContent?, isKnown: Bool = false) {
            self.header = header
            self.files = files
            self.signed = signed
            self.isKnown = isKnown
        }

        /// The SHA-256 the content of each object of `rows` (files by their ordinal) must
        /// have; nil in a catalog without trusted keys. Only the rows a sync needs are
        /// asked for: an update's changed files, not the version's.
        func signedContent(of rows: some Sequence<(ordinal: Int, digest: SHA1.Digest)>) throws -> [SHA1.Digest: SHA256.Digest]? {
            try signed?.contentDigests(for: rows)
        }

        /// What the signature says of the content of the object of every file of `flavor`
        /// (every file for nil), read a row at a time; nil in a catalog without trusted keys.
        func signedContentOfFiles(flavor: String?) throws -> [SHA1.Digest: SHA256.Digest]? {
            guard signed != nil else { return nil }
            var rows = try files.rows(flavor: flavor)
            // A sequence cannot throw: a broken row ends it, and is thrown once it has.
            var broken: Error?
            let content = try signedContent(
                of: AnySequence {
                    AnyIterator {
                        do { return try rows.next() ? (ordinal: Int(rows.ordinal), digest: rows.object.digest) : nil } catch {
                            broken = error
                            return nil
                        }
                    }
                })
            if let broken { throw broken }
            return content
        }
    }

    /// Reads the manifest in `file` as a stream (gunzipping it when `gzipped`) into its
    /// table, written beside the kept copy with nothing of it held (`ManifestTableWriter`),
    /// copying its plain JSON into the repo as it goes, and in a signed
    /// catalog hashing it in the same pass; checks that it describes the version asked for
    /// (and its signature, by `digests` where it can) before the copy takes the kept
    /// manifest's name.
    private func keep(
        _ file: String, gzipped: Bool, url: String, catalog: String, bundle: String, version: Int, digests: DigestListFetcher,
        _ deltaFallBack: (String) -> Void
    ) async throws -> Fetched {
        try FileManager.default.createDirectory(atPath: repo.manifestsFolder + "/" + catalog, withIntermediateDirectories: true)
        let kept = repo.manifestFile(catalog, bundle: bundle, version: version)
        let temporary = AtomicFile.temporaryName(for: kept)
        defer { unlink(temporary) }
        let copy = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
        // A signature covers the manifest's SHA-256: hashed as it is copied, never held whole.
        let hasher = checks.map { _ in SHA256() }
        let document = try StreamedDocument(path: file, name: url, gzipped: gzipped) {
            try copy.write($0)
            hasher?.update($0)
        }
        let (header, writer) = try ManifestTableWriter.read(document, scratchFolder: repo.temporaryFolder)
        guard header.catalog == catalog, header.bundle == bundle, header.version == version else {
            throw ClientError.badResponse(
                url: url,
                reason: "describes \(header.catalog) \(header.bundle)-\(header.version), "
                    + "not \(catalog) \(bundle)-\(version)")
        }
        // After the folder exists: a checked digest list is kept in it.
        let sha256 = hasher?.finalize()
        let signed = try await checkSignature(header, sha256: sha256, file: temporary, digests: digests, deltaFallBack)
        // The table of a manifest this one replaces goes first: without trusted keys a
        // table is trusted for its manifest's name and size alone (`ManifestTable`).
        let tableFile = repo.manifestTableFile(catalog, bundle: bundle, version: version)
        unlink(tableFile)
        try AtomicFile.install(copy, over: kept)
        let subject = ManifestTable.Subject(
            catalog: catalog, bundle: bundle, version: version, size: Int64(try copy.status().st_size), sha256: sha256)
        return Fetched(header, try VersionTable.written(writer, header: header, subject: subject, at: tableFile, in: repo), signed)
    }

    /// What the signature that covers the manifest (whose plain JSON, hashing to
    /// `sha256`, is in `file`) says of its objects' content; nil in an unsigned catalog.
    private func checkSignature(
        _ header: ManifestHeader, sha256: SHA256.Digest?, file: String, digests: DigestListFetcher,
        _ deltaFallBack: (String) -> Void
    ) async throws -> SignedContent? {
        guard let checks, let sha256 else { return nil }
        let facts = SignatureChecks.ManifestFacts(
            catalog: header.catalog, bundle: header.bundle, version: header.version, fileCount: header.fileCount,
            sha256: sha256, file: file)
        return try await checks.checkManifest(facts, digests: digests, fallBack: deltaFallBack)
    }

    /// A manifest the repo kept, read once: its header and table and, in a signed catalog,
    /// the SHA-256 of its plain JSON that the signature check needs.
    struct Kept: Sendable {
        let header: ManifestHeader
        let files: VersionTable
        let sha256: SHA256.Digest?
    }

    /// The manifest an earlier run fetched (and checked), from its table when `trust`
    /// takes it, or read as a stream into its table written afresh (held only when its
    /// files are not in path order), hashed in the same pass in a signed catalog; nil
    /// when there is none.
    func kept(catalog: String, bundle: String, version: Int, trust: ManifestTable.Trust) throws -> Kept? {
        try VersionTable.kept(catalog: catalog, bundle: bundle, version: version, in: repo, trust: trust, hashing: checks != nil)
            .map { Kept(header: $0.header, files: $0.files, sha256: $0.sha256) }
    }
}
