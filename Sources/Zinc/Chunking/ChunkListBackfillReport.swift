/// What a ``ChunkListBackfill`` wrote.
public struct ChunkListBackfillReport: Equatable, Sendable {
    /// `chunks/B-V.json.gz` of each version that got one.
    public var written: [String] = []
    /// Raw objects read and chunked (each once, however many versions share it).
    public var chunkedObjects = 0
    public var bytesRead: Int64 = 0
}
