import Synchronization
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// The engine awaits the fetches of an `AsyncCatalogSource` (URLSession's): a request in
/// flight holds no thread, so a sync keeps as many in flight as its concurrency allows,
/// however few threads the engine runs on, and never calls the blocking fetch.
@Suite struct AwaitedFetchTests {
    @Test func requestsInFlightHoldNoThread() async throws {
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        let objects = 24
        for i in 0..<objects { try dir.write("src/\(i).bin", SampleContent.noise(2000 + i, seed: UInt64(i + 1))) }
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
        let repo = try Repo.initialize(at: dir.at("repo"))
        // Every object request waits until all of them are in flight at once.
        let source = HeldObjectFetches(url: "file://" + dir.at("cat"), holding: objects)
        let options = SyncOptions(strategy: .objects, concurrency: objects, sourceFactory: { _ in source })
        _ = try await repo.track(url: source.url, bundle: "B", options: options)
        // Released anyway after a while, for a failure rather than a hang.
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            source.releaseAll()
        }
        defer { deadline.cancel() }
        let report = try await repo.sync(options: options)
        #expect(report.bundles.first?.outcome == .updated)
        #expect(source.mostInFlight == objects)
        #expect(source.blockingFetches == 0)
    }
}

/// A catalog folder whose object requests are held, suspended, until `holding` of them
/// are in flight; counts the blocking fetches the sync should never make.
private final class HeldObjectFetches: AsyncCatalogSource {
    private struct State {
        var waiting = [CheckedContinuation<Void, Never>]()
        var released = false
        var mostInFlight = 0
        var blockingFetches = 0
    }

    let url: String
    private let files: FileCatalogSource
    private let holding: Int
    private let state = Mutex(State())

    init(url: String, holding: Int) {
        self.url = url
        files = FileCatalogSource(url: url, root: String(url.dropFirst("file://".count)))
        self.holding = holding
    }

    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    var blockingFetches: Int { state.withLock { $0.blockingFetches } }

    func fetch(_ request: FetchRequest, into sink: FetchSink) throws -> FetchResponse {
        state.withLock { $0.blockingFetches += 1 }
        return try files.fetch(request, into: sink)
    }

    func fetch(_ request: FetchRequest, into sink: FetchSink) async throws -> FetchResponse {
        if request.path.hasPrefix("objects/") {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    guard !state.released else { return [continuation] }
                    state.waiting.append(continuation)
                    state.mostInFlight = max(state.mostInFlight, state.waiting.count)
                    guard state.waiting.count == holding else { return [] }
                    state.released = true
                    defer { state.waiting = [] }
                    return state.waiting
                }
                for waiting in ready { waiting.resume() }
            }
        }
        return try files.fetch(request, into: sink)
    }

    func releaseAll() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
