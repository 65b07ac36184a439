import CLibCurl
import ZincHTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libcurl easy handle, reused across requests so that requests to one server keep
/// their connection (and TLS session) alive. Not thread-safe: `HTTPClient` hands each
/// one to a single thread at a time.
final class CurlHandle {
    private let handle: UnsafeMutableRawPointer
    /// Drives `handle` so that a `TransferStop` can end it at once; keeps its connections.
    private let transfer: OpaquePointer
    /// Where libcurl writes its detailed message for a failed transfer.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    /// Loads libcurl on first use; fails with `reason` when the machine has none.
    init() throws(CurlError) {
        if let problem = zinc_curl_load() { throw CurlError(reason: String(cString: problem)) }
        guard let handle = zinc_curl_easy_init() else { throw CurlError(reason: "libcurl could not create a transfer") }
        guard let transfer = zinc_curl_transfer_new() else {
            zinc_curl_easy_cleanup(handle)
            throw CurlError(reason: "libcurl could not create a transfer")
        }
        self.handle = handle
        self.transfer = transfer
        errorBuffer.initialize(to: 0)
    }

    deinit {
        zinc_curl_transfer_free(transfer)
        zinc_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Performs `request`, handing each response header line and body chunk to
    /// `receiver`. Returns nil on success, otherwise libcurl's message (also when the
    /// receiver stopped the transfer, which the caller knows about). Every request
    /// starts from a reset handle, so no option or pointer of the last one is ever
    /// used; the reset keeps the handle's open connections.
    func perform(_ request: HTTPRequest, receiver: HTTPReceiver) throws(CurlError) -> String? {
        zinc_curl_easy_reset(handle)
        try setCommonOptions(followRedirects: request.followRedirects)
        if let patience = request.patience {
            let seconds = max(1, Int(patience.components.seconds) + (patience.components.attoseconds > 0 ? 1 : 0))
            try set(CURLOPT_CONNECTTIMEOUT, seconds)
            try set(CURLOPT_LOW_SPEED_TIME, seconds)
        }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { zinc_curl_slist_free_all(list) }
        // libcurl would otherwise wait up to a second for "100 Continue" before a body.
        for line in request.headers + ["Expect:"] { list = zinc_curl_slist_append(list, line) }
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_HTTPHEADER, UnsafeRawPointer(list))
        if !request.ranges.isEmpty {
            try set(CURLOPT_RANGE, byteRangeSet(request.ranges))
        }
        let context = Unmanaged.passRetained(TransferContext(receiver: receiver, body: request.body))
        defer { context.release() }
        let opaque = UnsafeRawPointer(context.toOpaque())
        try set(CURLOPT_HEADERDATA, opaque)
        try set(CURLOPT_WRITEDATA, opaque)
        switch request.method {
        case .get:
            break
        case .head:
            try set(CURLOPT_NOBODY, 1)
        case .put:
            try set(CURLOPT_UPLOAD, 1)
            try set(CURLOPT_INFILESIZE_LARGE, Int(request.body?.length ?? 0))
        case .post:
            try set(CURLOPT_POST, 1)
            try set(CURLOPT_POSTFIELDSIZE_LARGE, Int(request.body?.length ?? 0))
        case .delete:
            try set(CURLOPT_CUSTOMREQUEST, "DELETE")
        }
        if request.method == .put || request.method == .post {
            try set(CURLOPT_READDATA, opaque)
            try set(
                CURLOPT_READFUNCTION,
                callback: { data, size, count, context in
                    guard let context, let data else { return CurlHandle.abortRead }
                    let transfer = Unmanaged<TransferContext>.fromOpaque(context).takeUnretainedValue()
                    return transfer.fill(UnsafeMutableRawBufferPointer(start: data, count: size * count)) ?? CurlHandle.abortRead
                })
        }
        errorBuffer[0] = 0
        if let stop = request.stop {
            guard stop.attach(transfer) else { return Self.stoppedMessage }
        } else {
            zinc_curl_transfer_rearm(transfer)
        }
        defer { request.stop?.detach() }
        let code = zinc_curl_transfer_perform(transfer, handle)
        if code == CURLE_ABORTED_BY_CALLBACK, request.stop?.fired == true { return Self.stoppedMessage }
        guard code != CURLE_OK else { return nil }
        return errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: zinc_curl_easy_strerror(code))
    }

    private static let abortRead = Int(CURL_READFUNC_ABORT)
    static let stoppedMessage = "stopped"

    private func setCommonOptions(followRedirects: Bool) throws(CurlError) {
        try set(CURLOPT_ERRORBUFFER, errorBuffer)
        try set(CURLOPT_NOSIGNAL, 1)  // timeouts without SIGALRM: the process has other threads
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, 10)
        try set(CURLOPT_CONNECTTIMEOUT, 60)
        // A server that sends nothing for a minute is gone.
        try set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try set(CURLOPT_LOW_SPEED_TIME, 60)
        try set(CURLOPT_USERAGENT, "zinc")
        try set(
            CURLOPT_WRITEFUNCTION,
            callback: { data, size, count, context in
                CurlHandle.deliver(data, size * count, to: context) { $0.body }
            })
        try set(
            CURLOPT_HEADERFUNCTION,
            callback: { data, size, count, context in
                CurlHandle.deliver(data, size * count, to: context) { $0.header }
            })
    }

    /// What the callbacks of one transfer reach through libcurl's context pointer.
    private final class TransferContext {
        let receiver: HTTPReceiver
        let body: RequestBody?
        private var sent: Int64 = 0

        init(receiver: HTTPReceiver, body: RequestBody?) {
            self.receiver = receiver
            self.body = body
        }

        /// The next piece of the request body; nil when it cannot be read.
        func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int? {
            guard let body else { return 0 }
            let n = body.read(at: sent, into: buffer)
            if let n { sent += Int64(n) }
            return n
        }
    }

    /// libcurl's callbacks: returning anything but `length` aborts the transfer.
    private static func deliver(
        _ data: UnsafeMutablePointer<CChar>?, _ length: Int, to context: UnsafeMutableRawPointer?,
        _ pick: (HTTPReceiver) -> HTTPReceiver.Chunk
    ) -> Int {
        guard let context else { return 0 }
        let transfer = Unmanaged<TransferContext>.fromOpaque(context).takeUnretainedValue()
        return pick(transfer.receiver)(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    private func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(zinc_curl_setopt_long(handle, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: UnsafeRawPointer?) throws(CurlError) {
        try check(zinc_curl_setopt_pointer(handle, option, value), option)
    }

    /// Strings are copied by libcurl, so the temporary C string may go after the call.
    private func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(value.withCString { zinc_curl_setopt_pointer(handle, option, $0) }, option)
    }

    private func set(_ option: CURLoption, callback: curl_write_callback) throws(CurlError) {
        try check(zinc_curl_setopt_callback(handle, option, callback), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlError) {
        guard code == CURLE_OK else {
            throw CurlError(reason: "libcurl refused option \(option.rawValue): \(String(cString: zinc_curl_easy_strerror(code)))")
        }
    }
}

/// libcurl is missing or refuses the settings Zinc needs.
package struct CurlError: Error {
    package let reason: String
}
