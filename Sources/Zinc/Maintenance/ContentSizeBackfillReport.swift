/// What a ``ContentSizeBackfill`` wrote.
public struct ContentSizeBackfillReport: Equatable, Sendable {
    /// `sizes/B-V.json.gz` of each version that got one.
    public var written: [String] = []
    /// Gzipped objects read (each once, however many versions share it).
    public var measuredObjects = 0
    /// Their stored bytes.
    public var bytesRead: Int64 = 0
}
