import Zinc

/// Where a ``CatalogSource`` puts the bytes it fetched. A source only appends to it: the
/// wanted bytes, in order, as they arrive. Keeping what an earlier attempt wrote, cutting
/// off bytes found wrong and counting what arrived are the caller's work, so a sink
/// offers nothing else. A source that wraps another (to count or transform its bytes)
/// may hand the inner one a sink of its own. Sendable, since a source may write from a
/// thread or queue of its own.
public protocol FetchSink: Sendable {
    /// Appends `bytes`, which stay valid only during the call. A source may call it from
    /// any thread, one call at a time; what it throws (a full disk) ends the fetch, and the
    /// source lets it through.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// The client hands sources its scratch files and the parts downloads resume in.
extension PosixFile: FetchSink {}
