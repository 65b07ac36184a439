import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Refreshes `catalogs/<id>.json` from the catalog's sources with `If-None-Match`, and
/// checks that what a source serves is the catalog it is tracked for. `track` and a seed
/// read an index through the same checks (`fetchFresh`) and keep it the same way
/// (`accept`), so that no path keeps an index a sync would refuse.
package struct IndexFetcher {
    let repo: Repo
    let limit: Int64

    static let remotePath = "catalog.json.gz"

    /// What sets a seed's index apart from one a catalog's source serves.
    struct Policy {
        /// Whether a signature's expiry and a sequence below the last accepted are held
        /// against the index. Not for a seed, which ships inside an app for months and
        /// whose catalog the next sync checks: an index older than the one accepted is
        /// then checked but not kept.
        var refusesOld = true
        /// Whether the index came from one of the catalog's sources, whose validators it
        /// keeps. A seed's folder is none: the validators are all forgotten, since they
        /// belong to the index they came with, and the next sync fetches the index
        /// rather than hear that this one is unchanged.
        var fromSource = true

        static let sync = Policy()
        static let seed = Policy(refusesOld: false, fromSource: false)
    }

    /// An index as a source served it, its signature checked when the catalog has
    /// trusted keys; not kept yet.
    struct Fetched: Sendable {
        var bytes: [UInt8]
        /// The URL of the source that served it.
        var url: String
        var etag: String?
        var checked: SignatureChecks.CheckedIndex?
    }

    /// Only the bundles the repo tracks in `catalog` are kept from the index: an index of
    /// many bundles then costs little more memory than its bytes. For a catalog with
    /// trusted keys, the index (even one the server says is unchanged) is used only with
    /// a valid signature (`SignatureChecks.checkIndex`), and its sequence is kept as the
    /// lowest acceptable from now on; a refused index leaves the repo as it was. The
    /// signature is kept beside the index (`catalogs/<id>.json.sig`), so that an unchanged
    /// catalog costs two conditional requests and no body.
    func refresh(
        _ catalog: String, via chain: SourceChain, state: inout RepoState,
        report: inout SyncReport.CatalogRefresh
    ) async throws -> CatalogIndex {
        let tracked = Set(state.bundles.filter { $0.catalog == catalog }.map(\.bundle))
        let local = repo.catalogFile(catalog)
        let haveLocal = FileManager.default.fileExists(atPath: local)
        let etags = haveLocal ? state.catalogs[catalog]?.etags ?? [:] : [:]
        let keys = state.catalogs[catalog]?.trustedKeys ?? []
        let lastSequence = state.catalogs[catalog]?.indexSequence
        guard let document = try await chain.fetchDocument(Self.remotePath, etags: etags, limit: limit) else {
            report.notModified = true
            guard let bytes = try AtomicFile.read(local, limit: limit) else { throw ZincError.catalogNotFound(local) }
            if !keys.isEmpty {
                // Unchanged is still checked: a frozen catalog's server would answer 304 forever.
                let kept = try AtomicFile.read(local + ".sig", limit: Int64(IndexSignature.sizeLimit)).map {
                    SignatureChecks.KeptSignature(bytes: $0, etags: state.catalogs[catalog]?.signatureETags ?? [:])
                }
                let unchanged = Fetched(bytes: bytes, url: chain.catalog, etag: nil)
                let refreshed = try await check(unchanged, catalog: catalog, keys: keys, lastSequence: lastSequence, kept: kept, via: chain)
                if refreshed.bytes != bytes { return try keep(refreshed) }
                if let checked = refreshed.checked {
                    state.catalogs[catalog, default: .init()].indexSequence = checked.signature.sequence
                    try keepSignature(checked, of: catalog, in: &state.catalogs[catalog, default: .init()], policy: .sync)
                }
                try state.save(in: repo.root)
            }
            return try CatalogIndex.parse(bytes, path: local, onlyBundles: tracked)
        }
        let served = Fetched(bytes: document.bytes, url: document.url, etag: document.etag)
        return try keep(try await check(served, catalog: catalog, keys: keys, lastSequence: lastSequence, via: chain))

        func keep(_ fetched: Fetched) throws -> CatalogIndex {
            report.source = fetched.url
            let index = try Self.parse(fetched.bytes, url: fetched.url, onlyBundles: tracked)
            guard index.id == catalog else {
                throw ClientError.badResponse(url: fetched.url, reason: "serves catalog '\(index.id)', not '\(catalog)'")
            }
            try accept(fetched, as: catalog, into: &state)
            try state.save(in: repo.root)
            return index
        }
    }

    /// The index `chain` serves, asked for without validators, for `track` and a seed,
    /// which learn the catalog's id from it. It is checked as `refresh` checks an index:
    /// by `trustedKeys` or, without them, by the keys the repo trusts for that id (none:
    /// not checked). Nothing is kept: see `accept`.
    func fetchFresh(via chain: SourceChain, state: RepoState, trustedKeys: [PublicKey], policy: Policy = .sync) async throws
        -> (Fetched, CatalogIndex)
    {
        guard let served = try await chain.fetchDocument(Self.remotePath, limit: limit) else {
            throw ClientError.badResponse(url: chain.catalog, reason: "answered 304 to a request without a validator")
        }
        let first = try Self.parse(served.bytes, url: served.url)
        let keys = trustedKeys.isEmpty ? state.catalogs[first.id]?.trustedKeys ?? [] : trustedKeys
        let fetched = try await check(
            Fetched(bytes: served.bytes, url: served.url, etag: served.etag), catalog: first.id, keys: keys,
            lastSequence: policy.refusesOld ? state.catalogs[first.id]?.indexSequence : nil, acceptExpired: !policy.refusesOld,
            via: chain)
        guard fetched.bytes != served.bytes else { return (fetched, first) }
        // Fetched again, the signature having covered another index: still that catalog's.
        let index = try Self.parse(fetched.bytes, url: fetched.url)
        guard index.id == first.id else {
            throw ClientError.badResponse(url: fetched.url, reason: "serves catalog '\(index.id)', not '\(first.id)'")
        }
        return (fetched, index)
    }

    /// Checks `fetched`'s signature by `keys` (none: nothing to check), fetching the index
    /// again once where the signature covers another (see `SignatureChecks.checkIndex`).
    private func check(
        _ fetched: Fetched, catalog: String, keys: [PublicKey], lastSequence: Int64?,
        kept: SignatureChecks.KeptSignature? = nil, acceptExpired: Bool = false, via chain: SourceChain
    ) async throws -> Fetched {
        guard !keys.isEmpty else { return fetched }
        var fetched = fetched
        let checks = SignatureChecks(catalog: catalog, keys: keys, chain: chain)
        let checked = try await checks.checkIndex(
            fetched.bytes, lastSequence: lastSequence, kept: kept, acceptExpired: acceptExpired
        ) {
            guard let again = try await chain.fetchDocument(Self.remotePath, limit: limit) else { return nil }
            fetched = Fetched(bytes: again.bytes, url: again.url, etag: again.etag)
            return again.bytes
        }
        fetched.checked = checked
        return fetched
    }

    /// Keeps a checked index of `catalog` as the repo's (`catalogs/<id>.json`), with its
    /// validator, its signature and its sequence, in `state`, which the caller saves:
    /// the file is written first, so a validator never goes with another index.
    func accept(_ fetched: Fetched, as catalog: String, into state: inout RepoState, policy: Policy = .sync) throws {
        var sources = state.catalogs[catalog] ?? .init()
        if !policy.refusesOld, let signature = fetched.checked?.signature, let accepted = sources.indexSequence,
            accepted > signature.sequence
        {
            return
        }
        try AtomicFile.write(fetched.bytes, to: repo.catalogFile(catalog))
        if policy.fromSource {
            sources.etags[fetched.url] = fetched.etag
        } else {
            sources.etags = [:]
            sources.signatureETags = [:]
        }
        if let checked = fetched.checked {
            sources.indexSequence = checked.signature.sequence
            try keepSignature(checked, of: catalog, in: &sources, policy: policy)
        }
        state.catalogs[catalog] = sources
    }

    /// Keeps a signature that was fetched, with the one validator that goes with it.
    private func keepSignature(
        _ checked: SignatureChecks.CheckedIndex, of catalog: String, in sources: inout RepoState.CatalogSources, policy: Policy
    ) throws {
        guard let signature = checked.fetched else { return }
        try AtomicFile.write(signature.bytes, to: repo.catalogFile(catalog) + ".sig")
        if policy.fromSource { sources.signatureETags = signature.etag.map { [signature.url: $0] } ?? [:] }
    }

    /// Parses a fetched index and refuses an id that would not be a safe folder name.
    package static func parse(_ bytes: [UInt8], url: String, onlyBundles tracked: Set<String>? = nil) throws -> CatalogIndex {
        let index = try CatalogIndex.parse(bytes, path: catalogFileURL(url, remotePath), onlyBundles: tracked)
        try Names.validateCatalogID(index.id)
        return index
    }
}
