import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Refreshes `catalogs/<id>.json` from the catalog's sources with `If-None-Match`, and
/// checks that what a source serves is the catalog it is tracked for.
package struct IndexFetcher {
    let repo: Repo
    let limit: Int64

    static let remotePath = "catalog.json.gz"

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
        let localSignature = local + ".sig"
        let haveLocal = FileManager.default.fileExists(atPath: local)
        let etags = haveLocal ? state.catalogs[catalog]?.etags ?? [:] : [:]
        let keys = state.catalogs[catalog]?.trustedKeys ?? []
        let checks = SignatureChecks(catalog: catalog, keys: keys, chain: chain)
        guard var fetched = try await chain.fetchDocument(Self.remotePath, etags: etags, limit: limit) else {
            report.notModified = true
            guard let bytes = try AtomicFile.read(local, limit: limit) else { throw ZincError.catalogNotFound(local) }
            if !keys.isEmpty {
                // Unchanged is still checked: a frozen catalog's server would answer 304 forever.
                let kept = try AtomicFile.read(localSignature, limit: Int64(IndexSignature.sizeLimit)).map {
                    SignatureChecks.KeptSignature(bytes: $0, etags: state.catalogs[catalog]?.signatureETags ?? [:])
                }
                let checked = try await checks.checkIndex(bytes, lastSequence: state.catalogs[catalog]?.indexSequence, kept: kept) {
                    try await chain.fetchDocument(Self.remotePath, limit: limit)?.bytes
                }
                if checked.index != bytes { return try accept((checked.index, chain.catalog, nil), checked) }
                state.catalogs[catalog, default: .init()].indexSequence = checked.signature.sequence
                try keep(checked)
                try state.save(in: repo.root)
            }
            return try CatalogIndex.parse(bytes, path: local, onlyBundles: tracked)
        }
        var checked: SignatureChecks.CheckedIndex?
        if !keys.isEmpty {
            checked = try await checks.checkIndex(fetched.bytes, lastSequence: state.catalogs[catalog]?.indexSequence) {
                let again = try await chain.fetchDocument(Self.remotePath, limit: limit)
                if let again { fetched = again }
                return again?.bytes
            }
        }
        return try accept(fetched, checked)

        func accept(_ fetched: (bytes: [UInt8], url: String, etag: String?), _ checked: SignatureChecks.CheckedIndex?) throws
            -> CatalogIndex
        {
            report.url = fetched.url
            let index = try Self.parse(fetched.bytes, url: fetched.url, onlyBundles: tracked)
            guard index.id == catalog else {
                throw ClientError.badResponse(url: fetched.url, reason: "serves catalog '\(index.id)', not '\(catalog)'")
            }
            try AtomicFile.write(fetched.bytes, to: local)
            state.catalogs[catalog, default: .init()].etags[fetched.url] = fetched.etag
            if let checked {
                state.catalogs[catalog, default: .init()].indexSequence = checked.signature.sequence
                try keep(checked)
            }
            try state.save(in: repo.root)
            return index
        }

        /// Keeps a signature that was fetched, with the one validator that goes with it.
        func keep(_ checked: SignatureChecks.CheckedIndex) throws {
            guard let signature = checked.fetched else { return }
            try AtomicFile.write(signature.bytes, to: localSignature)
            state.catalogs[catalog, default: .init()].signatureETags = signature.etag.map { [signature.url: $0] } ?? [:]
        }
    }

    /// Parses a fetched index and refuses an id that would not be a safe folder name.
    package static func parse(_ bytes: [UInt8], url: String, onlyBundles tracked: Set<String>? = nil) throws -> CatalogIndex {
        let index = try CatalogIndex.parse(bytes, path: catalogFileURL(url, remotePath), onlyBundles: tracked)
        try Names.validateCatalogID(index.id)
        return index
    }
}
