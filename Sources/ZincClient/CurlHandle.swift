import CLibCurl

/// One libcurl easy handle, reused across requests so that fetches from one server
/// keep their connection (and TLS session) alive. Not thread-safe: its owner serializes.
final class CurlHandle {
    private let handle: UnsafeMutableRawPointer
    /// Where libcurl writes its detailed message for a failed transfer.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    /// Called with each chunk of a response body, or each header line; returns false to
    /// stop the transfer.
    typealias Receiver = (UnsafeRawBufferPointer) -> Bool

    /// Loads libcurl on first use; fails with `reason` when the machine has none.
    init() throws(CurlError) {
        if let problem = zinc_curl_load() { throw CurlError(reason: String(cString: problem)) }
        guard let handle = zinc_curl_easy_init() else { throw CurlError(reason: "libcurl could not create a transfer") }
        self.handle = handle
        errorBuffer.initialize(to: 0)
        try set(CURLOPT_ERRORBUFFER, errorBuffer)
        try set(CURLOPT_NOSIGNAL, 1)  // timeouts without SIGALRM: the process has other threads
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 1)
        try set(CURLOPT_MAXREDIRS, 10)
        try set(CURLOPT_CONNECTTIMEOUT, 60)
        // A server that sends nothing for a minute is gone.
        try set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try set(CURLOPT_LOW_SPEED_TIME, 60)
        try set(CURLOPT_USERAGENT, "zinc")
        try set(CURLOPT_WRITEFUNCTION, callback: { data, size, count, context in
            CurlHandle.deliver(data, size * count, to: context) { $0.body }
        })
        try set(CURLOPT_HEADERFUNCTION, callback: { data, size, count, context in
            CurlHandle.deliver(data, size * count, to: context) { $0.header }
        })
    }

    deinit {
        zinc_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Performs one GET of `url`. `headers` are sent as given; `range` as `bytes=a-b`.
    /// Returns nil on success, otherwise libcurl's message (also when a receiver stopped
    /// the transfer, which the caller knows about). Every request sets each per-request
    /// option, so none of the pointers the last one left in the handle is ever used.
    func get(_ url: String, range: Range<Int64>?, headers: [String],
             header: @escaping Receiver, body: @escaping Receiver) throws(CurlError) -> String? {
        var list: UnsafeMutablePointer<curl_slist>?
        defer { zinc_curl_slist_free_all(list) }
        for line in headers { list = zinc_curl_slist_append(list, line) }
        try set(CURLOPT_URL, url)
        try set(CURLOPT_HTTPHEADER, UnsafeRawPointer(list))
        if let range {
            try set(CURLOPT_RANGE, "\(range.lowerBound)-\(range.upperBound - 1)")
        } else {
            try set(CURLOPT_RANGE, nil as UnsafeRawPointer?)
        }
        let receivers = Receivers(header: header, body: body)
        let context = Unmanaged.passRetained(receivers)
        defer { context.release() }
        try set(CURLOPT_HEADERDATA, UnsafeRawPointer(context.toOpaque()))
        try set(CURLOPT_WRITEDATA, UnsafeRawPointer(context.toOpaque()))
        errorBuffer[0] = 0
        let code = zinc_curl_easy_perform(handle)
        guard code != CURLE_OK else { return nil }
        return errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: zinc_curl_easy_strerror(code))
    }

    private final class Receivers {
        let header: Receiver
        let body: Receiver

        init(header: @escaping Receiver, body: @escaping Receiver) {
            self.header = header
            self.body = body
        }
    }

    /// libcurl's callbacks: returning anything but `length` aborts the transfer.
    private static func deliver(_ data: UnsafeMutablePointer<CChar>?, _ length: Int, to context: UnsafeMutableRawPointer?,
                                _ pick: (Receivers) -> Receiver) -> Int {
        guard let context else { return 0 }
        let receivers = Unmanaged<Receivers>.fromOpaque(context).takeUnretainedValue()
        return pick(receivers)(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
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
struct CurlError: Error {
    let reason: String
}
