/// What a download costs, in bytes: the bytes themselves plus a fixed overhead per
/// request standing for its round trip, headers and CDN per-request price. 16 KiB is
/// about one round trip of a phone on a few Mbit/s; a fast LAN would use much less.
public struct CostModel: Equatable, Sendable {
    public var requestOverhead: Int64

    public static let defaultRequestOverhead: Int64 = 16 << 10

    public init(requestOverhead: Int64 = defaultRequestOverhead) {
        self.requestOverhead = requestOverhead
    }

    /// The cost of a fetch plan, in bytes: each request counts as `requestOverhead` bytes.
    public func cost(requests: Int, bytes: Int64) -> Int64 {
        Int64(requests) * requestOverhead + bytes
    }
}
