import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sync's downloads, for another downloader to perform (``Repo/exportDownloads(options:)``):
/// a system service that finishes them while the app is suspended (`BackgroundDownloads`
/// of ZincURLSession), another process, `curl`. Each request's answer goes to a file of
/// the repo's tmp/ where a sync resumes from: ``Repo/applyDownloads(_:options:progress:)``
/// is then a sync to the versions the plan was made for, which verifies what the files
/// hold and fetches only what is missing or wrong. The requests are the ones the sync
/// would make: the front of an archive in one range, or each object by itself.
public struct DownloadPlan: Sendable, Codable {
    /// One download: the file at ``url``, or its ``range``, into ``destination``.
    public struct Request: Sendable, Codable {
        public let url: URL
        /// Where the answer goes, relative to the repo's folder (`tmp/…`).
        public let destination: String
        /// The bytes to ask for (`Range: bytes=lower-upper`, both included), written at
        /// offset `lower` of the destination, which holds the bytes before them already;
        /// nil: the whole file, written from the start.
        public let range: ClosedRange<Int64>?
        /// The destination's length once the download is complete.
        package let size: Int64
        /// The SHA-1 (hex) of the object the destination holds (of its content,
        /// gunzipped when the file is an object's `.gz`); nil for an archive's front.
        package let sha1: String?
    }

    /// A bundle's version the plan was made for: the one the apply moves it to, by the
    /// strategy planned (`FetchStrategy`'s raw value), whose files the downloads brought.
    struct Pin: Sendable, Codable {
        let catalog: String
        let bundle: String
        let version: Int
        let strategy: String?
    }

    public let requests: [Request]
    let bundles: [Pin]

    /// The requests of the updates `plan` plans; `requests` the downloads of its bundles.
    init(_ plan: SyncPlan, requests: [Request]) {
        bundles = plan.bundles.compactMap { planned in
            guard planned.action == .update || planned.action == .repair, let version = planned.version else { return nil }
            return Pin(catalog: planned.catalog, bundle: planned.bundle, version: version, strategy: planned.strategy?.rawValue)
        }
        self.requests = requests
    }

    /// The plan a sync follows to take the downloads: each bundle to its version.
    var approved: SyncPlan {
        SyncPlan(
            bundles: bundles.map { pin in
                var planned = BundlePlan(catalog: pin.catalog, bundle: pin.bundle, flavor: nil, currentVersion: nil)
                planned.version = pin.version
                planned.action = .update
                planned.strategy = pin.strategy.flatMap(FetchStrategy.init)
                return planned
            })
    }

    /// Removes what the downloads left that the sync did not take. Only a file of the
    /// repo's tmp/ is touched, whatever the plan's file says.
    func removeLeftovers(in repo: Repo) {
        for request in requests {
            let name = request.destination.dropFirst("tmp/".count)
            guard request.destination.hasPrefix("tmp/"), !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                continue
            }
            unlink(repo.temporaryFolder + "/" + name)
        }
    }
}

extension DownloadPlan.Request {
    /// `object` fetched whole into the part `ObjectFetcher` continues from.
    init(_ object: StoredObject, chain: SourceChain) throws {
        let remote = StoredObject.path(sha: object.sha, format: object.preferredFormat)
        try self.init(
            url: Self.url(chain.location(of: remote)), destination: "tmp/" + object.fileName + ".part", range: nil,
            size: object.preferredSize, sha1: object.sha)
    }

    /// The front of an archive up to `length`, after the `have` bytes its part (named
    /// `part`, in tmp/) holds.
    init(archive path: String, length: Int64, part: String, have: Int64, chain: SourceChain) throws {
        try self.init(
            url: Self.url(chain.location(of: path)), destination: "tmp/" + part, range: have...(length - 1), size: length,
            sha1: nil)
    }

    private static func url(_ location: String) throws -> URL {
        guard let url = URL(string: location) else { throw ClientError.unsupportedURL(location) }
        return url
    }
}

extension SyncRun {
    /// The requests that bring what `update` lacks into the files a sync resumes from:
    /// the archive's front after what its part holds, or each object whole.
    func requests(of update: PreparedUpdate, via chain: SourceChain) throws -> [DownloadPlan.Request] {
        let plan = update.plan
        guard !plan.missing.isEmpty else { return [] }
        guard plan.strategy != .objects, let archivePath = plan.archivePath else {
            return try plan.missing.map { try DownloadPlan.Request($0, chain: chain) }
        }
        let length = plan.strategy == .lmfo ? plan.prefixLength : plan.archiveLength
        let part = partialArchive(update.name)
        var status = stat()
        let have = lstat(part, &status) == 0 ? Int64(status.st_size) : 0
        guard have < length else { return [] }
        return [
            try DownloadPlan.Request(
                archive: archivePath, length: length, part: String(part.dropFirst(repo.temporaryFolder.count + 1)), have: have,
                chain: chain)
        ]
    }
}
