import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A static HTTP/1.1 server for Zinc catalogs.
///
/// `start()` binds and returns the port; `run()` serves until SIGINT, SIGTERM or `shutdown()`.
/// Shutdown stops accepting, lets every response in flight finish (up to
/// `shutdownGracePeriod`), closes idle keep-alive connections at once, and then releases all
/// threads.
public final class CatalogHTTPServer: Sendable {
    public enum LifecycleError: Error, Equatable {
        case alreadyStarted
    }

    public let configuration: ServerConfiguration

    private struct Running: Sendable {
        let channel: any Channel
        let group: MultiThreadedEventLoopGroup
        let fileIO: NIOThreadPool
        let connections: ConnectionRegistry
    }

    private enum Lifecycle {
        case idle
        case starting(Task<Int, any Error>)
        case running(Running)
        case stopping(Task<Void, any Error>)
        case stopped(Result<Void, any Error>)
    }

    private struct State {
        var lifecycle = Lifecycle.idle
        var stopWaiters: [CheckedContinuation<Void, any Error>] = []
    }

    private let state = NIOLockedValueBox(State())

    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Binds the listening socket and returns its port (the chosen one when the configured port is 0).
    public func start() async throws -> Int {
        let task = try state.withLockedValue { state in
            guard case .idle = state.lifecycle else { throw LifecycleError.alreadyStarted }
            let task = Task { try await self.bind() }
            state.lifecycle = .starting(task)
            return task
        }
        return try await task.value
    }

    /// Serves until SIGINT or SIGTERM arrives or `shutdown()` is called, and returns once the
    /// shutdown is complete. Starts the server first if `start()` was not called.
    public func run() async throws {
        let isIdle = state.withLockedValue { state in
            if case .idle = state.lifecycle { return true }
            return false
        }
        if isIdle { _ = try await start() }
        let trap = SignalTrap(signals: [SIGINT, SIGTERM]) { _ in
            Task { try? await self.shutdown() }
        }
        defer { trap.remove() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            state.withLockedValue { state in
                if case .stopped(let result) = state.lifecycle {
                    continuation.resume(with: result)
                } else {
                    state.stopWaiters.append(continuation)
                }
            }
        }
    }

    /// Stops the server gracefully; returns when it is fully stopped. Safe to call repeatedly
    /// and concurrently.
    public func shutdown() async throws {
        enum Step {
            case awaitStart(Task<Int, any Error>)
            case awaitStop(Task<Void, any Error>)
            case done(Result<Void, any Error>)
        }
        while true {
            let step = state.withLockedValue { state -> Step in
                switch state.lifecycle {
                case .idle:
                    Self.complete(&state, with: .success(()))
                    return .done(.success(()))
                case .starting(let task):
                    return .awaitStart(task)
                case .running(let running):
                    let task = Task { try await self.stop(running) }
                    state.lifecycle = .stopping(task)
                    return .awaitStop(task)
                case .stopping(let task):
                    return .awaitStop(task)
                case .stopped(let result):
                    return .done(result)
                }
            }
            switch step {
            case .awaitStart(let task):
                // Whether it binds or fails, the next pass sees `running` or `idle`.
                _ = try? await task.value
            case .awaitStop(let task):
                try await task.value
                return
            case .done(let result):
                try result.get()
                return
            }
        }
    }

    private func bind() async throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let fileIO = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        fileIO.start()
        do {
            let root = try ServedRoot(
                directory: configuration.root, mode: configuration.mode,
                catalogID: configuration.catalogID)
            let connections = ConnectionRegistry()
            let channel: any Channel
            do {
                channel = try await makeBootstrap(group: group, root: root, fileIO: fileIO, connections: connections)
                    .bind(host: configuration.host, port: configuration.port)
                    .get()
            } catch {
                throw BindError(error, host: configuration.host, port: configuration.port)
            }
            let running = Running(channel: channel, group: group, fileIO: fileIO, connections: connections)
            state.withLockedValue { $0.lifecycle = .running(running) }
            return channel.localAddress?.port ?? configuration.port
        } catch {
            try? await fileIO.shutdownGracefully()
            try? await group.shutdownGracefully()
            state.withLockedValue { $0.lifecycle = .idle }
            throw error
        }
    }

    private func makeBootstrap(
        group: MultiThreadedEventLoopGroup,
        root: ServedRoot,
        fileIO: NIOThreadPool,
        connections: ConnectionRegistry
    ) -> ServerBootstrap {
        let idleTimeout = TimeAmount(configuration.idleTimeout)
        let accessLog = configuration.accessLog
        let routes = configuration.routes
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: 2 * StaticFileHandler.chunkSize, high: 4 * StaticFileHandler.chunkSize)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard connections.register(channel) else {
                        channel.close(promise: nil)
                        return
                    }
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idleTimeout, writeTimeout: idleTimeout))
                    try pipeline.configureHTTPServerPipeline(
                        withErrorHandling: false,
                        withEncoderConfiguration: .init(),
                        withDecoderLimitConfiguration: Self.decoderLimits
                    )
                    try pipeline.addHandler(StaticFileHandler(root: root, fileIO: fileIO, accessLog: accessLog, routes: routes))
                }
            }
    }

    /// Request lines and headers of catalog clients are short; these limits bound the memory a
    /// hostile client can make a connection hold, and overflowing them answers 431.
    private static let decoderLimits: NIOHTTPDecoderLimitConfiguration = {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = 8 * 1024
        limits.maxHeaderListSize = 32 * 1024
        limits.maxHeaderFieldCount = 100
        return limits
    }()

    private func stop(_ running: Running) async throws {
        let result: Result<Void, any Error>
        do {
            try? await running.channel.close()
            let connections = running.connections.beginQuiescing()
            // HTTPServerPipelineHandler closes an idle connection at once and a busy one right
            // after the response it is writing.
            for connection in connections {
                connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
            let loop = running.group.next()
            let deadline = loop.scheduleTask(in: TimeAmount(configuration.shutdownGracePeriod)) {
                for connection in connections { connection.close(promise: nil) }
            }
            try? await EventLoopFuture.andAllComplete(connections.map(\.closeFuture), on: loop).get()
            deadline.cancel()
            // Pool first: its pending completions still need the event loops.
            try await running.fileIO.shutdownGracefully()
            try await running.group.shutdownGracefully()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        state.withLockedValue { Self.complete(&$0, with: result) }
        try result.get()
    }

    private static func complete(_ state: inout State, with result: Result<Void, any Error>) {
        state.lifecycle = .stopped(result)
        for waiter in state.stopWaiters { waiter.resume(with: result) }
        state.stopWaiters = []
    }
}
