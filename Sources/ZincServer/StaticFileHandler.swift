import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers the requests of one connection with files of the served root.
///
/// Bodies are sent as `FileRegion` chunks (sendfile), written only while the channel is
/// writable: a slow reader holds at most a few chunks in the kernel and NIO's queue, and never
/// a file in memory. One request is handled at a time; `HTTPServerPipelineHandler` holds back
/// pipelined requests until the previous response has ended.
final class StaticFileHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Small enough that a client downloading at a few KB/s still completes a chunk within the
    /// idle timeout, and that the logged byte count of an aborted download is close to the truth;
    /// big enough that sendfile moves large archives in few system calls.
    static let chunkSize = 128 * 1024

    private let root: ServedRoot
    private let fileIO: NIOThreadPool
    private let accessLog: @Sendable (String) -> Void
    private let routes: (any DynamicRoutes)?
    private var remoteAddress = "-"

    /// Head received, waiting for the request's end.
    private var pendingRequest: RequestInfo?
    /// Between the request's end and the response head (the file is being opened).
    private var isPreparing = false
    /// The response whose body is being written.
    private var response: ResponseInProgress?

    init(
        root: ServedRoot, fileIO: NIOThreadPool, accessLog: @escaping @Sendable (String) -> Void,
        routes: (any DynamicRoutes)? = nil
    ) {
        self.root = root
        self.fileIO = fileIO
        self.accessLog = accessLog
        self.routes = routes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        remoteAddress = context.channel.remoteAddress?.ipAddress ?? "-"
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            pendingRequest = RequestInfo(head: head)
        case .body:
            // Request bodies mean nothing here; dropping them keeps memory flat.
            break
        case .end:
            guard let request = pendingRequest, let head = request.head else { return }
            pendingRequest = nil
            handle(head, request, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let response {
            pump(response, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent {
            switch idle {
            case .read where response == nil && !isPreparing:
                // Idle keep-alive connection, or a client trickling its request head.
                context.close(promise: nil)
            case .write where response != nil:
                // The client stopped reading its response.
                context.close(promise: nil)
            default:
                break
            }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let parserError = error as? HTTPParserError, !isPreparing, response?.endWritten ?? true {
            // The decoder gives up on the connection after this: answer once, then close.
            let status: HTTPResponseStatus =
                parserError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
            let request = pendingRequest ?? RequestInfo(head: nil)
            pendingRequest = nil
            send(.error(status), file: nil, for: request, keepAlive: false, context: context)
            return
        }
        context.close(promise: nil)
    }

    private func handle(_ head: HTTPRequestHead, _ request: RequestInfo, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        guard head.method == .GET || head.method == .HEAD else {
            // NIO's decoder takes a CONNECT as the start of a tunnel and reads nothing more
            // of the connection: it closes once its 405 is sent.
            send(.methodNotAllowed, file: nil, for: request, keepAlive: keepAlive && head.method != .CONNECT, context: context)
            return
        }
        if let routes {
            do {
                if let dynamic = try DynamicRequest(target: head.uri, prefix: routes.prefix) {
                    respond(to: dynamic, with: routes, head, request, keepAlive: keepAlive, context: context)
                    return
                }
            } catch {
                send(.error(.badRequest), file: nil, for: request, keepAlive: keepAlive, context: context)
                return
            }
        }
        let path: RequestPath
        do {
            path = try RequestPath(target: head.uri)
        } catch {
            let status: HTTPResponseStatus = error == .malformed ? .badRequest : .notFound
            send(.error(status), file: nil, for: request, keepAlive: keepAlive, context: context)
            return
        }

        isPreparing = true
        let root = self.root
        fileIO.runIfActive(eventLoop: context.eventLoop) {
            try OpenedFile.open(root.resolve(path))
        }.assumeIsolated().whenComplete { result in
            self.isPreparing = false
            switch result {
            case .success(let file):
                let plan = ResponsePlan.forFile(
                    size: file.size,
                    validators: file.validators,
                    catalogPath: file.catalogPath,
                    requestHeaders: head.headers
                )
                self.send(plan, file: file, for: request, keepAlive: keepAlive, context: context)
            case .failure(let error):
                let status: HTTPResponseStatus =
                    switch error as? OpenedFile.OpenError {
                    case .notFound: .notFound
                    case .forbidden: .forbidden
                    case .failed: .internalServerError
                    // The pool only refuses work once shutdown has begun.
                    case nil: .serviceUnavailable
                    }
                self.send(.error(status), file: nil, for: request, keepAlive: keepAlive, context: context)
            }
        }
    }

    /// Asks the routes on the file I/O pool, then sends their answer like a file's.
    private func respond(
        to dynamic: DynamicRequest,
        with routes: any DynamicRoutes,
        _ head: HTTPRequestHead,
        _ request: RequestInfo,
        keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        isPreparing = true
        fileIO.runIfActive(eventLoop: context.eventLoop) {
            routes.respond(to: dynamic)
        }.assumeIsolated().whenComplete { result in
            self.isPreparing = false
            guard case .success(let answer) = result else {
                self.send(.error(.serviceUnavailable), file: nil, for: request, keepAlive: keepAlive, context: context)
                return
            }
            var headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
            let status = HTTPResponseStatus(statusCode: answer.status)
            switch answer.body {
            case .text(let text):
                headers.replaceOrAdd(name: "Content-Length", value: String(text.utf8.count))
                let plan = ResponsePlan(status: status, headers: headers, body: .text(text))
                self.send(plan, file: nil, for: request, keepAlive: keepAlive, context: context)
            case .stream(let stream):
                let plan = ResponsePlan(status: status, headers: headers, body: .empty)
                if head.method == .HEAD { stream.close() }
                self.send(
                    plan, file: nil, stream: head.method == .HEAD ? nil : stream, for: request,
                    keepAlive: keepAlive, context: context)
            }
        }
    }

    private func send(
        _ plan: ResponsePlan,
        file: OpenedFile?,
        stream: (any DynamicBodyStream)? = nil,
        for request: RequestInfo,
        keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        // NIO's encoder refuses a body after the head of an answer to HEAD or CONNECT, and
        // a refused write would end the answer unsent.
        let isBodiless = request.head?.method == .HEAD || request.head?.method == .CONNECT
        var segments = [ResponseSegment]()
        if !isBodiless {
            switch plan.body {
            case .empty: break
            case .file(let bytes): segments = [.file(bytes)]
            case .parts(let parts, let closing):
                segments = parts.flatMap { [.text(context.channel.allocator.buffer(string: $0.head)), .file($0.bytes)] }
                segments.append(.text(context.channel.allocator.buffer(string: closing)))
            case .text(let text): segments = [.text(context.channel.allocator.buffer(string: text))]
            }
        }
        segments.removeAll { if case .file(let bytes) = $0 { bytes.isEmpty } else { false } }
        let readsFile = segments.contains { if case .file = $0 { true } else { false } }
        let response = ResponseInProgress(
            request: request,
            status: plan.status,
            keepAlive: keepAlive,
            file: readsFile ? file?.handle : nil,
            segments: segments
        )
        if response.file == nil { try? file?.handle.close() }
        response.stream = stream
        guard context.channel.isActive else {
            // The client left while its file was being opened.
            finish(response, context: context, completed: false)
            return
        }

        var headers = plan.headers
        headers.add(name: "Date", value: HTTPDate.format(secondsSinceEpoch: Int(Date().timeIntervalSince1970)))
        let version = request.head?.version ?? .http1_1
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if version == .http1_0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        self.response = response
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: plan.status, headers: headers))), promise: nil)
        if response.stream != nil {
            pumpStream(response, context: context)
        } else {
            pump(response, context: context)
        }
    }

    /// Sends a dynamic body: the next chunk is made on the pool once the previous one is
    /// written, so a slow reader holds one chunk, never the whole body.
    private func pumpStream(_ response: ResponseInProgress, context: ChannelHandlerContext) {
        guard let stream = response.stream, !response.finished else { return }
        response.isStreaming = true
        fileIO.runIfActive(eventLoop: context.eventLoop) {
            try stream.next()
        }.assumeIsolated().whenComplete { result in
            response.isStreaming = false
            guard !response.finished else {
                stream.close()
                return
            }
            switch result {
            case .success(let chunk?):
                let buffer = context.channel.allocator.buffer(bytes: chunk)
                context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(buffer)))).assumeIsolated().whenComplete {
                    if case .success = $0 {
                        response.bytesSent += chunk.count
                        self.pumpStream(response, context: context)
                    } else {
                        self.finish(response, context: context, completed: false)
                    }
                }
            case .success(nil):
                response.endWritten = true
                context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete {
                    if case .success = $0 {
                        self.finish(response, context: context, completed: true)
                    } else {
                        self.finish(response, context: context, completed: false)
                    }
                }
            case .failure:
                self.finish(response, context: context, completed: false)
            }
        }
    }

    /// Writes the body's text and file chunks while the channel is writable; `channelWritabilityChanged` resumes it.
    private func pump(_ response: ResponseInProgress, context: ChannelHandlerContext) {
        // Writes and flushes can re-enter through `channelWritabilityChanged`; the outer call
        // then makes another pass instead of two loops interleaving their chunks.
        guard !response.isPumping else {
            response.wantsAnotherPass = true
            return
        }
        response.isPumping = true
        defer { response.isPumping = false }
        repeat {
            response.wantsAnotherPass = false
            while let segment = response.segment, context.channel.isWritable, !response.finished {
                let length: Int
                let part: IOData
                switch segment {
                case .text(let buffer):
                    length = buffer.readableBytes
                    part = .byteBuffer(buffer)
                    response.advance()
                case .file(let bytes):
                    guard let handle = response.file else { return }
                    length = min(Self.chunkSize, bytes.upperBound - response.next)
                    part = .fileRegion(FileRegion(fileHandle: handle, readerIndex: response.next, endIndex: response.next + length))
                    response.next += length
                    if response.next == bytes.upperBound { response.advance() }
                }
                context.write(wrapOutboundOut(.body(part))).assumeIsolated().whenComplete { result in
                    switch result {
                    case .success: response.bytesSent += length
                    case .failure: self.finish(response, context: context, completed: false)
                    }
                }
            }
            guard !response.finished, !response.endWritten else { return }
            if response.segment == nil {
                response.endWritten = true
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { result in
                    if case .success = result {
                        self.finish(response, context: context, completed: true)
                    } else {
                        self.finish(response, context: context, completed: false)
                    }
                }
                return
            }
            context.flush()
        } while response.wantsAnotherPass
    }

    private func finish(_ response: ResponseInProgress, context: ChannelHandlerContext, completed: Bool) {
        guard !response.finished else { return }
        response.finished = true
        if let file = response.file {
            // Chunks of this file may still be queued when a write fails: NIO fails them once
            // the channel (closed below) is closed. Closing the file before that would let a
            // queued chunk reach sendfile with a closed descriptor, or one reused meanwhile.
            if completed {
                try? file.close()
            } else {
                context.channel.closeFuture.assumeIsolated().whenComplete { _ in try? file.close() }
            }
        }
        response.file = nil
        // A chunk being made on the pool closes its stream when it is done (`pumpStream`).
        if let stream = response.stream, !response.isStreaming { stream.close() }
        response.stream = nil
        if self.response === response { self.response = nil }
        let request = response.request
        let entry = AccessLogEntry(
            remoteAddress: remoteAddress,
            receivedAt: request.receivedAt,
            requestLine: request.head.map { "\($0.method.rawValue) \($0.uri) \($0.version)" },
            status: response.status.code,
            bodyBytes: response.bytesSent,
            durationNanoseconds: (NIODeadline.now() - request.started).nanoseconds
        )
        accessLog(entry.line)
        if !(completed && response.keepAlive) && context.channel.isActive {
            context.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension StaticFileHandler: Sendable {}

private struct RequestInfo {
    /// Nil for a request that could not be parsed.
    var head: HTTPRequestHead?
    var receivedAt = Int(Date().timeIntervalSince1970)
    var started = NIODeadline.now()
}

/// A piece of a response body: text made in memory, or bytes of the opened file, sent
/// in chunks of at most `StaticFileHandler.chunkSize`.
private enum ResponseSegment {
    case text(ByteBuffer)
    case file(Range<Int>)
}

/// The state of one response, shared by the write callbacks of its chunks.
private final class ResponseInProgress {
    let request: RequestInfo
    let status: HTTPResponseStatus
    let keepAlive: Bool
    var file: NIOFileHandle?
    var stream: (any DynamicBodyStream)?
    /// A chunk of `stream` is being made on the file I/O pool.
    var isStreaming = false
    private let segments: [ResponseSegment]
    private var index = 0
    /// The next byte of the file to send, within the current segment when it is a file's.
    var next = 0
    var bytesSent = 0
    var endWritten = false
    var finished = false
    var isPumping = false
    var wantsAnotherPass = false

    init(request: RequestInfo, status: HTTPResponseStatus, keepAlive: Bool, file: NIOFileHandle?, segments: [ResponseSegment]) {
        self.request = request
        self.status = status
        self.keepAlive = keepAlive
        self.file = file
        self.segments = segments
        start()
    }

    /// The segment being sent; nil once the whole body is queued.
    var segment: ResponseSegment? { index < segments.count ? segments[index] : nil }

    func advance() {
        index += 1
        start()
    }

    private func start() {
        if case .file(let bytes) = segment { next = bytes.lowerBound }
    }
}
