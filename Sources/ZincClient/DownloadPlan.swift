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
/// would make, one range at most each: the front of an archive, each object by itself,
/// and the ranges of a large object's changed chunks (neighbours a few kilobytes apart
/// merged into one).
public struct DownloadPlan: Sendable, Codable {
    /// One download: the file at ``url``, or its ``range``, into ``destination``.
    public struct Request: Sendable, Codable {
        public let url: URL
        /// Where the answer goes, relative to the repo's folder (`tmp/…`).
        public let destination: String
        /// The bytes to ask for (`Range: bytes=lower-upper`, both included); nil: the
        /// whole file.
        public let range: ClosedRange<Int64>?
        /// Where in the destination the answer's first byte goes: the destination holds
        /// the bytes before it already (an archive's front continued), or is new (0).
        public let offset: Int64
        /// The destination's length once the download is complete.
        package let size: Int64
        /// The SHA-1 (hex) of the object the destination holds, or a range of (of its
        /// content, gunzipped when the file is an object's `.gz`); nil for an archive's front.
        package let sha1: String?

        /// How the destination of a range of a chunked object ends (`DownloadedRanges`).
        static let pieceSuffix = ".range"
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
            if let file = Self.localFile(request.destination, in: repo) { unlink(file) }
        }
    }

    /// The file of the repo's tmp/ a request's `destination` names; nil for any other.
    static func localFile(_ destination: String, in repo: Repo) -> String? {
        let name = destination.dropFirst("tmp/".count)
        guard destination.hasPrefix("tmp/"), !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return repo.temporaryFolder + "/" + name
    }
}

extension DownloadPlan.Request {
    /// `object` fetched whole into the part `ObjectFetcher` continues from.
    init(_ object: StoredObject, chain: SourceChain) throws {
        let remote = StoredObject.path(sha: object.sha, format: object.preferredFormat)
        try self.init(
            url: Self.url(chain.location(of: remote)), destination: "tmp/" + object.fileName + ".part", range: nil, offset: 0,
            size: object.preferredSize, sha1: object.sha)
    }

    /// `range` of the stored file of the object `assembly` builds, into a file of its own.
    init(_ range: Range<Int64>, of assembly: ChunkAssembly, chain: SourceChain) throws {
        let remote = StoredObject.path(sha: assembly.object.sha, format: assembly.layout.format)
        try self.init(
            url: Self.url(chain.location(of: remote)),
            destination: "tmp/\(assembly.object.sha).\(range.lowerBound)-\(range.upperBound)" + Self.pieceSuffix,
            range: range.lowerBound...(range.upperBound - 1), offset: 0, size: range.upperBound - range.lowerBound,
            sha1: assembly.object.sha)
    }

    /// The front of an archive up to `length`, after the `have` bytes its part (named
    /// `part`, in tmp/) holds.
    init(archive path: String, length: Int64, part: String, have: Int64, chain: SourceChain) throws {
        try self.init(
            url: Self.url(chain.location(of: path)), destination: "tmp/" + part, range: have...(length - 1), offset: have,
            size: length, sha1: nil)
    }

    private static func url(_ location: String) throws -> URL {
        guard let url = URL(string: location) else { throw ClientError.unsupportedURL(location) }
        return url
    }
}

extension SyncRun {
    /// The requests that bring what `update` lacks into the files a sync resumes from:
    /// the ranges of the objects built from chunks, then the archive's front after what
    /// its part holds, or each object whole.
    func requests(of update: PreparedUpdate, via chain: SourceChain) throws -> [DownloadPlan.Request] {
        let pieces = try (update.chunked?.assemblies ?? []).flatMap { assembly in
            try DownloadPlan.mergingNeighbours(assembly.ranges).map { try DownloadPlan.Request($0, of: assembly, chain: chain) }
        }
        return try pieces + requests(of: update.plan, name: update.name, via: chain)
    }

    private func requests(of plan: FetchPlan, name: String, via chain: SourceChain) throws -> [DownloadPlan.Request] {
        guard !plan.missing.isEmpty else { return [] }
        guard plan.strategy != .objects, let archivePath = plan.archivePath else {
            return try plan.missing.map { try DownloadPlan.Request($0, chain: chain) }
        }
        let length = plan.strategy == .lmfo ? plan.prefixLength : plan.archiveLength
        let part = partialArchive(name)
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

extension DownloadPlan {
    /// Chunk ranges closer than this are asked for in one request, the bytes between
    /// them included: about what a 50 ms round trip carries at 10 Mbit/s, so the request
    /// saved costs more than the bytes.
    static let neighbourGap: Int64 = 64 << 10

    /// `ranges` (ascending, apart) with each gap of at most `neighbourGap` bytes filled.
    static func mergingNeighbours(_ ranges: [Range<Int64>]) -> [Range<Int64>] {
        var merged = [Range<Int64>]()
        for range in ranges {
            if let last = merged.last, range.lowerBound - last.upperBound <= neighbourGap {
                merged[merged.count - 1] = last.lowerBound..<range.upperBound
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
