import Foundation
import Testing

@testable import ZincServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Start, run and graceful shutdown")
struct LifecycleTests {
    @Test("port 0 binds a free port, which start() returns")
    func ephemeralPort() async throws {
        try await withCatalogServer { _, server in
            let response = try server.get("/catalog.json")
            #expect(server.port > 0)
            #expect(response.status == 200)
        }
    }

    @Test("shutdown lets a download in flight finish, refuses new connections and closes idle ones")
    func gracefulShutdown() async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        let large = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) }
        try fixture.write(large, "archives/Big-1.tar")
        let server = CatalogHTTPServer(configuration: ServerConfiguration(root: fixture.catalog, port: 0))
        let port = try await server.start()

        let downloading = try RawConnection(port: port)
        try downloading.send(request: "GET", "/archives/Big-1.tar")
        _ = try downloading.readHead()
        _ = try downloading.read(exactly: 4096)
        let idle = try RawConnection(port: port)
        try idle.send(request: "GET", "/catalog.json")
        #expect(try idle.readResponse().status == 200)

        let stopping = Task { try await server.shutdown() }
        // How soon the listener closes is up to the scheduler: on a loaded machine, more
        // than the 2 s this once allowed. That it closes is the point.
        let refused = await onThread {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                if (try? RawConnection(port: port)) == nil { return true }
                usleep(10_000)
            }
            return false
        }
        #expect(refused)
        #expect(await onThread { idle.isClosedByPeer() })

        let rest = try await onThread { Result { try downloading.read(exactly: large.count - 4096) } }.get()
        #expect(Array(large.prefix(4096)) + rest == large)
        #expect(await onThread { downloading.isClosedByPeer() })
        try await stopping.value
    }

    @Test("a response still stalled after the grace period is cut off")
    func gracePeriod() async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        try fixture.write(Array(repeating: 1, count: 32 << 20), "archives/Big-1.tar")
        var configuration = ServerConfiguration(root: fixture.catalog, port: 0)
        configuration.shutdownGracePeriod = .milliseconds(300)
        let server = CatalogHTTPServer(configuration: configuration)
        let port = try await server.start()
        let stalled = try RawConnection(port: port)
        try stalled.send(request: "GET", "/archives/Big-1.tar")
        _ = try stalled.readHead()
        let start = ContinuousClock.now
        try await server.shutdown()
        // Without the grace period this would wait for the 60 s idle timeout.
        #expect(ContinuousClock.now - start < .seconds(20))
        let received = await onThread { stalled.readUntilClosed().count }
        #expect(received < 32 << 20)
    }

    @Test("SIGTERM and SIGINT make run() return, for one server after another")
    func signals() async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        // Until run() installs its trap, a stray signal must not kill the test process.
        let previousTerm = signal(SIGTERM, SIG_IGN)
        let previousInt = signal(SIGINT, SIG_IGN)
        defer {
            signal(SIGTERM, previousTerm)
            signal(SIGINT, previousInt)
        }
        for number in [SIGTERM, SIGINT] {
            let server = CatalogHTTPServer(configuration: ServerConfiguration(root: fixture.catalog, port: 0))
            let port = try await server.start()
            let running = Task { try await server.run() }
            let client = RunningServer(server: server, port: port, logs: LogCollector())
            #expect(try await onThread { Result { try client.get("/index.json").status } }.get() == 200)

            let deadline = ContinuousClock.now + .seconds(20)
            let stopped = await onThread {
                while ContinuousClock.now < deadline {
                    kill(getpid(), number)
                    if (try? RawConnection(port: port)) == nil { return true }
                    usleep(50_000)
                }
                return false
            }
            #expect(stopped, "signal \(number)")
            try await running.value
        }
    }

    @Test("run() without start() starts the server; shutdown() ends it")
    func runStartsServer() async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        let server = CatalogHTTPServer(configuration: ServerConfiguration(root: fixture.catalog, port: 0))
        let running = Task { try await server.run() }
        try await Task.sleep(for: .milliseconds(200))
        try await server.shutdown()
        try await running.value
    }

    @Test("lifecycle misuse: double start throws, shutdown is idempotent, a missing root fails start")
    func misuse() async throws {
        let fixture = try CatalogFixture()
        defer { fixture.remove() }
        let server = CatalogHTTPServer(configuration: ServerConfiguration(root: fixture.catalog, port: 0))
        _ = try await server.start()
        await #expect(throws: CatalogHTTPServer.LifecycleError.alreadyStarted) { try await server.start() }
        async let first: Void = server.shutdown()
        async let second: Void = server.shutdown()
        _ = try await (first, second)
        try await server.shutdown()

        let neverStarted = CatalogHTTPServer(configuration: ServerConfiguration(root: fixture.catalog, port: 0))
        try await neverStarted.shutdown()

        let missing = CatalogHTTPServer(
            configuration: ServerConfiguration(root: fixture.base.appendingPathComponent("nope"), port: 0)
        )
        await #expect(throws: ServedRoot.SetupError.self) { try await missing.start() }
    }

    @Test("idle and stalled connections are closed after the idle timeout")
    func idleTimeout() async throws {
        try await withCatalogServer(configure: { $0.idleTimeout = .seconds(1) }) { _, server in
            let silent = try server.connect()
            #expect(silent.isClosedByPeer())

            let kept = try server.connect()
            try kept.send(request: "GET", "/catalog.json")
            #expect(try kept.readResponse().status == 200)
            #expect(kept.isClosedByPeer())

            let trickling = try server.connect()
            try trickling.send("GET /catalog.json HTTP/1.1\r\n")
            #expect(trickling.isClosedByPeer())
        }
    }
}
