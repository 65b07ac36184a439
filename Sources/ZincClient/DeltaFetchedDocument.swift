import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One version's copy of a chunk-deflated catalog document the repo keeps beside the
/// version's manifest (the manifest itself, or its digest list), had the cheapest way that
/// passes the caller's check: the copy the repo kept of this version, else one rebuilt by
/// a delta (`ManifestDelta`) from the copy it kept of an earlier version of the bundle,
/// else the whole document. Each is checked by the caller before it is used or kept, and
/// a delta refused in any way costs the whole document, never a wrong one.
///
/// Every step leaves the document in a file for the caller to read as a stream: nothing
/// here holds it whole.
struct DeltaFetchedDocument {
    enum Kind {
        /// `manifests/B-V.json.gz`, described by `manifest-chunks/B-V.json.gz`.
        case manifest
        /// `digests/B-V.txt.gz`, described by `digests/B-V.chunks.json.gz`.
        case digestList
    }

    let kind: Kind
    let catalog: String
    let bundle: String
    let version: Int
    let repo: Repo
    let chain: SourceChain
    /// The most bytes the served document, its description or its ranges may take.
    let limit: Int64
    /// Requests in flight at once for a delta from a server that answers one range per request.
    let parallel: Int

    /// The most plain bytes the document may have, which its reader refuses beyond: a
    /// manifest's is far above `limit` (1,000,000 files are 112 MB of JSON, served as 35 MB
    /// of gzip), so a delta is not refused for the size of the document it rebuilds.
    var plainLimit: Int64 {
        switch kind {
        case .manifest: StreamedDocument.absoluteLimit
        case .digestList: Int64(DigestList.sizeLimit)
        }
    }

    /// Where the repo keeps the plain document of `version` of the bundle.
    func keptFile(of version: Int) -> String {
        switch kind {
        case .manifest: repo.manifestFile(catalog, bundle: bundle, version: version)
        case .digestList: repo.digestListFile(catalog, bundle: bundle, version: version)
        }
    }

    /// The catalog's gzipped document, its chunk description, the names the description's
    /// `file` may have, and the stem of the scratch files it is fetched into.
    private var catalogNames: (remote: String, description: String, described: [String], stem: String) {
        let files = VersionFiles(bundle: bundle, version: version)
        switch kind {
        case .manifest:
            return (files.gzippedManifest, files.manifestChunks, [files.gzippedManifest, files.manifestChunksCopy], "manifest")
        case .digestList:
            return (files.digestList, files.digestListChunks, [files.digestList], "digests")
        }
    }

    /// The document, through the first step that gives one: `kept` gets the path of the
    /// copy kept of this version and returns nil when there is none (or it is unusable);
    /// `fetched` gets a file of the document from a delta (plain) or from the catalog
    /// (gzipped as served) and the URL it came from, and checks and keeps it. A delta that
    /// fails, or that `fetched` refuses, is reported to `fallBack` (not when the catalog has
    /// no description) and costs the whole document; errors of the whole one are thrown.
    /// `earlier` lists versions of the bundle whose copies the repo may hold, the preferred
    /// first.
    func fetch<T>(
        earlier: [Int], fallBack: (String) -> Void, kept: (_ path: String) async throws -> T?,
        fetched: (_ file: String, _ gzipped: Bool, _ url: String) async throws -> T
    ) async throws -> T {
        if let value = try await kept(keptFile(of: version)) { return value }
        let names = catalogNames
        let held = earlier.lazy.filter { $0 != self.version }.map(keptFile(of:)).first { access($0, R_OK) == 0 }
        if let held {
            let delta = ManifestDelta(repo: repo, chain: chain, limit: limit, plainLimit: plainLimit, parallel: parallel)
            let outcome = await delta.build(
                names.description, files: names.described, heldFile: held, part: "\(catalog).\(bundle)-\(version).\(names.stem)")
            switch outcome {
            case .built(let file, let url):
                defer { file.remove() }
                do { return try await fetched(file.path, false, url) } catch is CancellationError { throw CancellationError() } catch {
                    fallBack("\(error)")
                }
            case .fallBack(let reason):
                if let reason { fallBack(reason) }
            }
        }
        let part = try TemporaryFile(in: repo.temporaryFolder, named: names.stem)
        defer { part.remove() }
        guard let whole = try await chain.fetchDocument(names.remote, into: part, limit: limit) else {
            throw ClientError.badResponse(url: names.remote, reason: "answered 304 to a request without a validator")
        }
        return try await fetched(part.path, true, whole.location)
    }
}
