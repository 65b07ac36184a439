/// Where an import is: which phase, and how many files and bytes of it are done.
public struct ImportProgress: Sendable {
    /// `hashing` reads every file the stat cache does not vouch for and stores the small
    /// ones the catalog lacks as it goes; `storing` stores the remaining new contents
    /// (files over 1 MiB, and files the cache vouched for).
    public enum Phase: String, Sendable { case hashing, storing }
    public let phase: Phase
    public let completedFiles: Int
    public let totalFiles: Int
    /// Bytes read or stored: in `hashing`, a file the stat cache vouches for counts as a
    /// file done but adds no bytes, so a rate computed from them is the real one.
    public let completedBytes: Int64
    public let totalBytes: Int64
}

extension ImportProgress: CountedProgress {
    init(phase: Phase, completed: Int, total: Int, completedBytes: Int64, totalBytes: Int64) {
        self.init(phase: phase, completedFiles: completed, totalFiles: total, completedBytes: completedBytes, totalBytes: totalBytes)
    }
}
