import Synchronization
import Zinc
import ZincHTTP

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

/// The sources of one catalog, tried in order: when one cannot be reached (network
/// failure, HTTP error, missing file, a silence past its patience), the next one serves,
/// continuing a download where the failed one stopped, and the failed one is tried last
/// for the rest of the sync (the next sync starts with the first again). A source whose
/// bytes fail their check is dropped for the rest of the sync when another remains
/// (`distrust`), and the bytes are fetched again; with none left, that is reported.
/// Charges each request to the `account` of the task that makes it and learns each
/// source's link from it. Fetches may run on several threads at once.
final class SourceChain: Sendable {
    let catalog: String
    private let sources: [CatalogSource]
    /// One per source, in the same order.
    private let meters: [LinkMeter]
    private let temporaryFolder: String
    private let traffic = Mutex(Traffic())
    private let standing: Mutex<Standing>
    /// What each source does with several ranges in one request, as found in this sync
    /// or (by host) an earlier one.
    private let rangeSupport: HostRanges

    private struct Traffic {
        var inFlight = 0
        var started = 0
    }

    /// Which sources to try, in which order, and what went wrong with the others.
    private struct Standing {
        /// Indices into `sources`: failed ones at the end, distrusted ones gone.
        var order: [Int]
        var failures = [String]()
    }

    /// How often a download continues on the same source after its connection was cut
    /// with some bytes arrived, before the next source (or the next sync) takes over.
    static let resumesPerSource = 8

    /// A source waits this long, at least, for a byte before another source is tried:
    /// a stalled or cold mirror costs little more than this.
    static let shortestPatience = Duration.seconds(1)

    /// Set on every request, so that a cancelled sync stops the ones in flight.
    let cancellation: SyncCancellation?

    /// Each source's host, nil where no network is involved.
    private let hosts: [String?]
    private let probes: Mutex<Probes>

    private struct Probes {
        /// Sources not leading whose links the records do not know well, until probed.
        var pending: [Int]
        var running = [Task<Void, Never>]()
    }

    init(
        catalog: String, sources: [CatalogSource], temporaryFolder: String, links: LinkRecords = LinkRecords(),
        cancellation: SyncCancellation? = nil, now: Date = Date()
    ) {
        self.catalog = catalog
        self.cancellation = cancellation
        self.sources = sources
        self.temporaryFolder = temporaryFolder
        let hosts = sources.map { LinkRecords.host(of: $0.url) }
        self.hosts = hosts
        meters = hosts.map { host in LinkMeter(recorded: host.flatMap { links.hosts[$0] }) }
        rangeSupport = HostRanges(urls: sources.map(\.url), hosts: hosts, records: links, now: now)
        let order = SourcePreference.order(hosts: hosts, records: links, now: now)
        standing = Mutex(Standing(order: order))
        probes = Mutex(Probes(pending: SourcePreference.stale(hosts: hosts, records: links, now: now).filter { $0 != order.first }))
    }

    /// What each source that failed in this sync did, the next one then serving.
    var failures: [String] { standing.withLock { $0.failures } }

    /// What this sync found of its sources that changes what they are asked for.
    var notes: [String] { rangeSupport.notes }

    /// Drops source `index` for the rest of the sync, because `error` (bytes that failed
    /// their check) came from it. Returns whether another source remains to fetch them
    /// again from; with none, the source stays and `error` is the caller's to report.
    func distrust(_ index: Int, because error: Error) -> Bool {
        standing.withLock { standing in
            // Dropped already by a fetch running beside this one: the others remain.
            guard let position = standing.order.firstIndex(of: index) else { return true }
            guard standing.order.count > 1 else { return false }
            standing.order.remove(at: position)
            standing.failures.append("\(sources[index].url): \(error); fetched again from another source")
            return true
        }
    }

    /// What the requests made in this task and the tasks it starts are charged to; nil
    /// charges them to no part of the sync.
    @TaskLocal static var account: TrafficAccount?

    /// The link to the source that serves now (the lead, unless it failed): what plans
    /// are made for.
    var link: LinkEstimate { standing.withLock { $0.order.first }.map { meters[$0].estimate } ?? .assumed }

    /// The URL of the catalog file `path` at the source that serves now: where another
    /// downloader fetches it (`DownloadPlan`).
    func location(of path: String) throws -> String {
        guard let index = standing.withLock({ $0.order.first }) else {
            throw ClientError.allSourcesFailed(catalog: catalog, failures: failures)
        }
        return sources[index].location(of: path)
    }

    /// Measures, in the background, the links to the sources that do not lead and whose
    /// records are missing or old, so that a faster mirror can be chosen to lead the
    /// next sync (`SourcePreference`). Two one-byte requests of the index each: the
    /// second, on a connection kept alive, shows the round trip as the lead's requests
    /// do. Called once a sync is about to download, so that an up-to-date sync stays at
    /// its requests; the calls after the first do nothing.
    func startProbes() {
        probes.withLock { probes in
            for index in probes.pending {
                probes.running.append(
                    // Charged to no bundle: a probe runs beside whichever bundle started it.
                    Task(executorPreference: SyncEngine.executor) { [self] in
                        await Self.$account.withValue(nil) { await probe(index) }
                    })
            }
            probes.pending = []
        }
    }

    /// Two one-byte requests of the index to source `index`.
    private func probe(_ index: Int) async {
        guard let sink = try? PosixFile.open("/dev/null", flags: O_WRONLY) else { return }
        var request = FetchRequest(IndexFetcher.remotePath, ranges: [0..<1], limit: 1 << 20)
        request.patience = Self.shortestPatience
        for _ in 0..<2 {
            let response = try? await fetch(
                request, from: sources[index], into: sink, meter: meters[index], occupiesLink: false)
            guard response != nil else { return }
        }
    }

    /// Adds what this chain's fetches and probes measured to `records`, once the probes
    /// have ended.
    func measured(into records: inout LinkRecords) async {
        let running = probes.withLock { probes in
            defer { probes.running = [] }
            return probes.running
        }
        for probe in running { await probe.value }
        let now = Date()
        for (host, meter) in zip(hosts, meters) {
            if let host, let measured = meter.measured {
                records.hosts[host] = measured
                records.measuredAt[host] = now
            }
        }
        rangeSupport.record(into: &records, now: now)
    }

    /// A small gzipped document (index, signature), gunzipped, at most `limit` bytes both
    /// before and after gunzip; nil when every validator in `etags` still holds at the
    /// first source that answered. Returns the URL that answered and its new ETag.
    /// With `gzipped` false, a small file taken as it is (a signature).
    func fetchDocument(_ path: String, etags: [String: String] = [:], limit: Int64, gzipped: Bool = true) async throws
        -> (bytes: [UInt8], url: String, etag: String?)?
    {
        let part = try TemporaryFile(in: temporaryFolder, named: "document")
        defer { part.remove() }
        guard let fetched = try await fetchDocument(path, etags: etags, into: part, limit: limit) else { return nil }
        guard gzipped else { return (try PosixFile.open(part.path).readAll(upTo: Int(limit)), fetched.url, fetched.etag) }
        return (try Self.gunzip(part.path, location: fetched.location, limit: limit), fetched.url, fetched.etag)
    }

    /// A document of at most `limit` bytes left in `part` as it was served (gzipped), for
    /// one too large to hold (a manifest, read from there as a stream); nil when every
    /// validator in `etags` still holds. Returns the URL that answered, the document's
    /// location there and its new ETag.
    func fetchDocument(_ path: String, etags: [String: String] = [:], into part: TemporaryFile, limit: Int64) async throws
        -> (url: String, location: String, etag: String?)?
    {
        try await firstAvailable { source, meter, patience in
            try part.reset()
            var request = FetchRequest(path, etag: etags[source.url], limit: limit)
            request.patience = patience
            let response = try await fetch(request, from: source, into: part.file, meter: meter)
            if response.status == .notModified { return nil }
            return (source.url, source.location(of: path), response.etag)
        }
    }

    /// A small file the catalog may lack (a chunk list, gzipped; an LMFO record), its
    /// content (gunzipped when `gzipped`), from the source that serves now; nil when it
    /// is missing there, larger than `limit` or fails in any way. A hint is worth neither
    /// another source's round trips nor a mark against this one.
    func fetchHint(_ path: String, limit: Int64, gzipped: Bool = true) async -> (bytes: [UInt8], url: String, size: Int64)? {
        guard let part = try? TemporaryFile(in: temporaryFolder, named: "hint") else { return nil }
        defer { part.remove() }
        guard let (_, source) = try? await askServingSource(FetchRequest(path, limit: limit), into: part),
            let bytes = try? gzipped
                ? Self.gunzip(part.path, location: source.location(of: path), limit: limit)
                : PosixFile.open(part.path).readAll(upTo: Int(limit)),
            let size = try? Self.size(of: part.file)
        else { return nil }
        return (bytes, source.location(of: path), size)
    }

    /// What the source that serves now answers for a small file the catalog may lack (a
    /// rollout file), taken as it is: a missing file is an answer, not a failure, and no
    /// other source is asked, nor this one marked down.
    enum OptionalFile {
        case found(bytes: [UInt8], url: String, etag: String?)
        /// The validator sent still holds.
        case unchanged
        case missing
    }

    /// Asks for `path` with the validator `etags` holds for the source asked; throws what
    /// the fetch threw, other than the file's absence.
    func fetchOptional(_ path: String, etags: [String: String], limit: Int64) async throws -> OptionalFile {
        let part = try TemporaryFile(in: temporaryFolder, named: "optional")
        defer { part.remove() }
        do {
            let (response, source) = try await askServingSource(FetchRequest(path, limit: limit), etags: etags, into: part)
            if response.status == .notModified { return .unchanged }
            return .found(bytes: try PosixFile.open(part.path).readAll(upTo: Int(limit)), url: source.url, etag: response.etag)
        } catch let error as ClientError where error.isMissingFile {
            return .missing
        }
    }

    /// `request` of the source first in order alone, with its validator from `etags`.
    private func askServingSource(_ request: FetchRequest, etags: [String: String] = [:], into part: TemporaryFile) async throws
        -> (FetchResponse, CatalogSource)
    {
        guard let index = standing.withLock({ $0.order.first }) else {
            throw ClientError.allSourcesFailed(catalog: catalog, failures: [])
        }
        let source = sources[index]
        var request = request
        request.etag = etags[source.url]
        request.patience = sources.count > 1 ? patience(of: index) : nil
        return (try await fetch(request, from: source, into: part.file, meter: meters[index]), source)
    }

    /// The gunzipped content of the gzip file at `path`, refused beyond `limit` bytes.
    private static func gunzip(_ path: String, location: String, limit: Int64) throws -> [UInt8] {
        var document = [UInt8]()
        let gunzip = GzipDecompressor { chunk in
            guard Int64(document.count + chunk.count) <= limit else {
                throw ClientError.tooLarge(url: location + " (gunzipped)", limit: limit)
            }
            document.append(contentsOf: chunk)
        }
        do {
            try PosixFile.open(path).forEachChunk { try gunzip.update($0) }
            try gunzip.finish()
        } catch let failure as GzipDecompressor.Failure {
            throw ClientError.integrity(url: location, reason: "\(failure)")
        }
        return document
    }

    /// Brings `part` up to the first `length` bytes of `path`, appending to what an
    /// earlier (interrupted) attempt left there, so nothing is downloaded twice. With
    /// `ranged` false and an empty part the file is requested whole and must be exactly
    /// `length` bytes (an object); otherwise by range, and a file that ends early just
    /// leaves the part shorter (an archive prefix). Returns the part's length and the
    /// source that completed it (for `distrust`), nil when an earlier run had.
    @discardableResult
    func download(_ path: String, to part: String, length: Int64, ranged: Bool) async throws -> (length: Int64, source: Int?) {
        let file = try PosixFile.open(part, flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW)
        guard try Self.size(of: file) < length else { return (try Self.size(of: file), nil) }
        var served: Int?
        try await firstAvailable { source, meter, patience -> Void in
            try await appending(to: file) { have in
                // Complete though its connection was cut at the very end.
                guard have < length else { return true }
                // A server that ignores Range sends the file from its start: reading past
                // what the part holds costs no more than fetching it afresh.
                var request =
                    ranged || have > 0
                    ? FetchRequest(path, ranges: [have..<length], ignoredRangeAllowance: have) : FetchRequest(path, limit: length)
                request.patience = patience
                _ = try await fetch(request, from: source, into: file, meter: meter)
                served = sources.firstIndex { $0 === source }
                return true
            }
        }
        return (try Self.size(of: file), served)
    }

    /// One source's requests appending to `file`: `attempt` makes one from the bytes the
    /// file holds and says whether the download is complete. Bytes found wrong are cut
    /// off again and their error thrown; a connection cut after some bytes arrived is
    /// asked again at once, for the rest, up to `resumesPerSource` times; any other
    /// failure leaves what arrived for the next attempt, source or run to continue after.
    private func appending(to file: PosixFile, _ attempt: (_ have: Int64) async throws -> Bool) async throws {
        var resumes = 0
        while true {
            let before = try Self.size(of: file)
            do {
                if try await attempt(before) { return }
            } catch  where error.isDamage {
                _ = ftruncate(file.fd, off_t(before))
                throw error
            } catch {
                let have = (try? Self.size(of: file)) ?? before
                guard let failure = error as? ClientError, failure.code == .network, let url = failure.url,
                    let reason = failure.reason
                else { throw error }
                // Said of the file: how much of it arrived, over every attempt.
                guard have > before, resumes < Self.resumesPerSource else {
                    throw ClientError.transport(url: url, reason: reason, received: have)
                }
                resumes += 1
            }
        }
    }

    private static func size(of file: PosixFile) throws -> Int64 { Int64(try file.status().st_size) }

    /// Ranges per request at most: a server takes a request's head up to a limit (nginx:
    /// 8 KiB a line), and 200 ranges spell under 4 KiB.
    static let rangesPerRequest = 200

    /// Brings `part` up to the bytes of `ranges` of `path` (ascending, not overlapping)
    /// back to back, appending to what an earlier attempt left there. A source that
    /// answers several ranges with one, with the whole file, or with a refusal
    /// (`refusesSeveralRanges`) is asked one range per request from then on, `parallel`
    /// requests at once; one that answers a single range with the whole file ignores
    /// `Range` altogether, and fails this download and the next ones
    /// (`ClientError.rangeIgnored`) for the caller to fetch the files whole. Every answer
    /// but a cut one completes a range, so a source is given at most `answersAllowed`.
    /// Returns the source that completed it, nil when an earlier run had.
    @discardableResult
    func download(_ path: String, ranges: [Range<Int64>], to part: String, parallel: Int) async throws -> Int? {
        let file = try PosixFile.open(part, flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW)
        let total = ranges.reduce(Int64(0)) { $0 + ($1.upperBound - $1.lowerBound) }
        guard try Self.size(of: file) < total else { return nil }
        var served: Int?
        try await firstAvailable { source, meter, patience -> Void in
            let index = sources.firstIndex { $0 === source }!
            let location = source.location(of: path)
            if rangeSupport.support(of: index) == .ignored {
                throw ClientError.rangeIgnored(url: location, ranges: "one range")
            }
            var answers = 0
            try await appending(to: file) { have in
                guard have < total else { return true }
                guard answers < Self.answersAllowed(ranges.count) else {
                    throw ClientError.badResponse(
                        url: location, reason: "\(answers) answers brought \(have) of the \(total) bytes of \(ranges.count) ranges")
                }
                answers += 1
                let rest = Self.ranges(ranges, after: have)
                var request = FetchRequest(path, ranges: Array(rest.prefix(Self.rangesPerRequest)))
                request.patience = patience
                do {
                    if rangeSupport.support(of: index) == nil, request.ranges.count > 1 {
                        do {
                            if try await fetch(request, from: source, into: file, meter: meter).rangeAnswer == .singlePart {
                                rangeSupport.found(.onePerRequest, at: index)
                            }
                        } catch let error as ClientError where Self.refusesSeveralRanges(error) {
                            // Refused at its head, nothing read: asked again one range per request.
                            // After a whole file, one range alone first: the host may ignore `Range`.
                            rangeSupport.found(.onePerRequest, at: index)
                            let singly = error.httpStatus == nil ? 1 : parallel
                            try await fetchSingly(Array(rest.prefix(singly)), of: request, from: source, meter: meter, into: file)
                        }
                    } else {
                        let singly = rangeSupport.support(of: index) == nil ? 1 : parallel
                        try await fetchSingly(Array(rest.prefix(singly)), of: request, from: source, meter: meter, into: file)
                    }
                } catch let error as ClientError {
                    // The whole file to a request for one range.
                    if error.ignoredRanges != nil { rangeSupport.found(.ignored, at: index) }
                    throw error
                }
                let now = try Self.size(of: file)
                guard now > have else {
                    throw ClientError.badResponse(url: location, reason: "none of the ranges asked for came")
                }
                served = index
                return now >= total
            }
        }
        return served
    }

    /// How hosts answer a request for several ranges they do not serve in one answer:
    /// the whole file (S3, R2), 400 (GCS), 416 (Varnish), 501 (Fastly's segmented caching).
    private static func refusesSeveralRanges(_ error: ClientError) -> Bool {
        if error.ignoredRanges != nil { return true }
        return [400, 416, 501].contains(error.httpStatus ?? 0)
    }

    /// The answers a source may give for `count` ranges: an answer that is not cut brings
    /// one range at least, and a cut one is resumed at most `resumesPerSource` times.
    static func answersAllowed(_ count: Int) -> Int { count + resumesPerSource + 1 }

    /// Fetches `ranges`, one request each and all at once (each to a scratch file of its
    /// own), and appends their bytes to `file` in order, up to the first range that did
    /// not arrive whole; that one's error is thrown. An answer that ends short of its
    /// range is an error too: the ranges lie within the file, and a host that trickles
    /// them is not asked again and again.
    private func fetchSingly(
        _ ranges: [Range<Int64>], of request: FetchRequest, from source: CatalogSource, meter: LinkMeter, into file: PosixFile
    ) async throws {
        let scratch = try ranges.map { _ in try TemporaryFile(in: temporaryFolder, named: "range") }
        defer { for file in scratch { file.remove() } }
        let files = scratch.map(\.file)
        let outcomes = try await concurrentMap(count: ranges.count, limit: ranges.count) { i in
            var single = request
            single.ranges = [ranges[i]]
            return await Result { try await self.fetch(single, from: source, into: files[i], meter: meter) }
        }
        for (i, outcome) in outcomes.enumerated() {
            let arrived = try PosixFile.open(scratch[i].path)
            try arrived.forEachChunk { try file.write($0) }
            _ = try outcome.get()
            let size = try Int64(arrived.status().st_size)
            guard size == ranges[i].upperBound - ranges[i].lowerBound else {
                throw ClientError.badResponse(
                    url: source.location(of: request.path),
                    reason: "answered a request for bytes=\(byteRangeSet([ranges[i]])) with \(size) of its bytes")
            }
        }
    }

    /// What is left of `ranges` once the first `done` of their bytes are in.
    static func ranges(_ ranges: [Range<Int64>], after done: Int64) -> [Range<Int64>] {
        var skipped: Int64 = 0
        for (i, range) in ranges.enumerated() {
            let length = range.upperBound - range.lowerBound
            if skipped + length > done {
                return [(range.lowerBound + done - skipped)..<range.upperBound] + ranges[(i + 1)...]
            }
            skipped += length
        }
        return []
    }

    /// Every request of the chain: counted, measured, and stopped if the sync is cancelled.
    /// A request that does not `occupiesLink` (a probe's byte) leaves the others' rates
    /// measured as if it were not there.
    private func fetch(
        _ request: FetchRequest, from source: CatalogSource, into sink: PosixFile, meter: LinkMeter, occupiesLink: Bool = true
    ) async throws -> FetchResponse {
        try cancellation?.check()
        var request = request
        request.cancellation = cancellation
        return try await count(meter, occupiesLink: occupiesLink) { [request] in
            do {
                if let source = source as? AsyncCatalogSource { return try await source.fetch(request, into: sink) }
                return try await onWorkerThread { try source.fetch(request, into: sink) }
            } catch let error as SyncError {
                // A source of the app's own says what failed as the app's API spells it:
                // the chain judges the failure underneath, as its own transports' are.
                throw error.cause
            }
        }
    }

    private func count(
        _ meter: LinkMeter, occupiesLink: Bool, _ body: () async throws -> FetchResponse
    ) async throws -> FetchResponse {
        let shares = occupiesLink ? 1 : 0
        let account = Self.account
        let (first, wasIdle) = traffic.withLock { traffic in
            traffic.inFlight += shares
            traffic.started += shares
            return (traffic.started, traffic.inFlight == shares)
        }
        let start = ContinuousClock.now
        var received: Int64 = 0
        defer {
            traffic.withLock { $0.inFlight -= shares }
            account?.charge(requests: 1, bytes: received)
        }
        do {
            let response = try await body()
            received = response.received
            // Alone on the link from start to end: nothing was in flight, nothing started since.
            let alone = wasIdle && traffic.withLock { $0.started == first }
            meter.record(response, duration: ContinuousClock.now - start, alone: alone)
            return response
        } catch let error as ClientError {
            if error.code == .network, let bytes = error.received { received = bytes }
            throw error
        }
    }

    /// Tries `attempt` on the sources in their current order until one serves. Each but
    /// the last is given a patience: a few round trips of its link, at least
    /// `shortestPatience`, so that a stalled or cold source soon leaves the work to the next.
    private func firstAvailable<T>(_ attempt: (CatalogSource, LinkMeter, Duration?) async throws -> T) async throws -> T {
        var pauses = Self.backOff[...]
        while true {
            do {
                return try await eachSourceOnce(attempt)
            } catch let busy as EverySourceBusy {
                guard let pause = pauses.popFirst() else { throw busy.error }
                try await pauseUnlessCancelled(pause)
            }
        }
    }

    /// How long to wait before asking again when every source answered that it is busy,
    /// the first time, the second, the third: about 3.5 s in all before the sync gives up.
    static let backOff: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2)]

    /// Every source answered a busy status: `error` is what the chain would report.
    private struct EverySourceBusy: Error {
        let error: ClientError
    }

    /// One pass over the sources, in order.
    private func eachSourceOnce<T>(_ attempt: (CatalogSource, LinkMeter, Duration?) async throws -> T) async throws -> T {
        let order = standing.withLock { $0.order }
        var failures = [String]()
        var everyOneBusy = true
        for (position, index) in order.enumerated() {
            let isLast = position == order.count - 1
            let patience = isLast ? nil : patience(of: index)
            do {
                return try await attempt(sources[index], meters[index], patience)
            } catch let error as ClientError where error.isSourceUnavailable {
                everyOneBusy = everyOneBusy && error.isBusy
                if order.count == 1 { throw everyOneBusy ? EverySourceBusy(error: error) : error }
                failures.append(error.description)
                if !isLast { demote(index, because: error) }
            } catch  where !isLast && error.isDamage && distrust(index, because: error) {
                failures.append("\(error)")
                everyOneBusy = false
            }
        }
        let error = ClientError.allSourcesFailed(catalog: catalog, failures: failures)
        throw everyOneBusy ? EverySourceBusy(error: error) : error
    }

    /// Waits `pause`, in steps short enough that a cancelled sync stops within 50 ms.
    private func pauseUnlessCancelled(_ pause: Duration) async throws {
        let end = ContinuousClock.now + pause
        while ContinuousClock.now < end {
            try cancellation?.check()
            try? await Task.sleep(for: min(.milliseconds(50), end - ContinuousClock.now))
        }
        try cancellation?.check()
    }

    /// How long source `index` may stay silent before another serves: a few round trips
    /// of its link, at least `shortestPatience`.
    private func patience(of index: Int) -> Duration {
        max(Self.shortestPatience, .seconds(4 * meters[index].estimate.roundTripSeconds))
    }

    /// Tries source `index` last for the rest of the sync.
    private func demote(_ index: Int, because error: ClientError) {
        standing.withLock { standing in
            guard let position = standing.order.firstIndex(of: index), position < standing.order.count - 1 else { return }
            standing.order.remove(at: position)
            standing.order.append(index)
            standing.failures.append("\(sources[index].url): \(error); tried last from then on")
        }
    }
}

/// A uniquely named scratch file in the repo's tmp/ folder.
final class TemporaryFile {
    let path: String
    private(set) var file: PosixFile

    init(in folder: String, named stem: String) throws {
        var template = Array("\(folder)/\(stem).XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw ZincError.io(path: folder, operation: "create a temporary file in", errno: errno) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        file = PosixFile(fd: fd, path: path)
    }

    func reset() throws {
        file = try PosixFile.open(path, flags: O_WRONLY | O_TRUNC | O_NOFOLLOW)
    }

    func remove() { unlink(path) }
}
