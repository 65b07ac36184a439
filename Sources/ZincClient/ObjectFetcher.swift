import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Downloads objects one request each (`objects/xx/yy/<sha>[.gz]`) into
/// `tmp/<sha>[.gz].part`, then verifies them into objects/. A part left by an
/// interrupted run (or completed by another downloader, `DownloadPlan`) is continued
/// with a range request, not started over. Bytes that fail
/// their check are fetched again from another source of the catalog, if it has one.
struct ObjectFetcher {
    let repo: Repo
    let chain: SourceChain
    /// The SHA-256 of each object's content, from the manifest's signature, if signed.
    var signedContent: [SHA1.Digest: SHA256.Digest]?

    func fetch(_ object: StoredObject) async throws {
        let format = object.preferredFormat
        let remote = StoredObject.path(sha: object.sha, format: format)
        let part = repo.temporaryFolder + "/" + object.fileName + ".part"
        let origin = "\(chain.catalog): \(remote)"
        while true {
            let (_, source) = try await chain.download(remote, to: part, length: object.preferredSize, ranged: false)
            do {
                let writer = try VerifiedObjectWriter(
                    object: object, format: format, origin: origin, repo: repo,
                    signedSHA256: ObjectVerifier.signedSHA256(of: object, in: signedContent, origin: origin))
                try PosixFile.open(part).forEachChunk { try writer.write($0) }
                try writer.commit()
                unlink(part)
                return
            } catch {
                // A damaged part would fail the same way on every rerun. One that an earlier
                // run or another downloader completed (no source) is fetched again.
                unlink(part)
                guard error.isDamage, source.map({ chain.distrust($0, because: error) }) ?? true else { throw error }
            }
        }
    }
}
