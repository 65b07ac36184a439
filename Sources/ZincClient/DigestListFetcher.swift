import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SHA-256 of a version's objects' content through its version signature
/// (`VersionSignature`), which covers the version's digest list (`DigestList`) by its
/// SHA-256: the list the repo kept of this version, else one made by a delta from the
/// list it kept of an earlier version of the bundle, else the whole list
/// (`DeltaFetchedDocument`). The list used is kept beside the version's manifest for the
/// next update, and read from there a line per file asked for (`SignedContent`).
///
/// Every list is checked against the signature (its size, then its SHA-256) before use: a
/// delta found wrong costs the whole list, and a whole list found wrong costs the version
/// signature (the caller falls back to the manifest signature), never a wrong digest.
struct DigestListFetcher {
    let repo: Repo
    let chain: SourceChain
    /// The most bytes the list, its description or its ranges may take.
    let limit: Int64
    /// Requests in flight at once for a delta from a server that answers one range per request.
    let parallel: Int
    /// Versions of the bundle whose lists the repo may hold, the preferred first.
    let earlier: [Int]

    /// The checked list `signature` covers (which was checked to cover the manifest of
    /// `catalog`), or nil after telling `fallBack` why the list could not be had.
    func content(signedBy signature: VersionSignature, catalog: String, fallBack: (String) -> Void) async throws -> SignedContent? {
        let document = DeltaFetchedDocument(
            kind: .digestList, catalog: catalog, bundle: signature.bundle, version: signature.version, repo: repo, chain: chain,
            limit: limit, parallel: parallel)
        let local = document.keptFile(of: signature.version)
        do {
            return try await document.fetch(
                earlier: earlier, fallBack: fallBack,
                kept: { path in try? SignedContent(list: PosixFile.open(path), path: path, signature: signature) },
                fetched: { file, gzipped, url in try keep(file, gzipped: gzipped, url: url, signedBy: signature, at: local) })
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            fallBack("\(error)")
            return nil
        }
    }

    /// Copies the list in `file` (gunzipping it when `gzipped`) beside `local`, checks it
    /// against `signature`, and only then gives it `local`'s name.
    private func keep(_ file: String, gzipped: Bool, url: String, signedBy signature: VersionSignature, at local: String) throws
        -> SignedContent
    {
        let temporary = AtomicFile.temporaryName(for: local)
        defer { unlink(temporary) }
        let copy = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
        let document = try StreamedDocument(path: file, name: url, gzipped: gzipped, limit: Int64(DigestList.sizeLimit)) {
            try copy.write($0)
        }
        var piece = [UInt8]()
        while try document.read(into: &piece) { piece.removeAll(keepingCapacity: true) }
        // Read through a descriptor of its own, which still reads it once it has its name.
        let content = try SignedContent(list: PosixFile.open(temporary), path: url, signature: signature)
        try AtomicFile.install(copy, over: local)
        return content
    }
}
