import Foundation

/// Remembers, per source tree, the SHA-1 of each file together with what `stat` said
/// about it, so re-importing an unchanged tree reads no file content (git's index does
/// the same). It lives outside the source tree and outside the published catalog: in
/// `$ZINC_CACHE_DIR`, else `$XDG_CACHE_HOME/zinc`, else `~/.cache/zinc`.
///
/// A hit needs size, mtime and ctime (in ns), inode and device all equal: a file
/// replaced by another of the same size and mtime still differs in ctime or inode.
/// Entries younger than the scan (a file written in the same clock tick as it was
/// hashed could change again without its stamps moving) are never saved. A missing,
/// stale or damaged cache file only costs hashing: it is ignored and rewritten.
public final class StatCache: @unchecked Sendable {
    private struct Entry {
        let sha: String
        let stamp: FileStamp
    }

    private static let header = "zinc-stat-cache 1"
    /// Timestamps this close to the scan's start are not trusted (coarse kernel clocks).
    private static let racyMarginNanoseconds: Int64 = 50_000_000

    public let file: String
    private let loaded: [String: Entry]
    private var recorded = [String: Entry]()
    private let lock = NSLock()

    public static var defaultFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["ZINC_CACHE_DIR"], !folder.isEmpty { return folder }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/zinc" }
        return NSHomeDirectory() + "/.cache/zinc"
    }

    /// Opens the cache of the source tree at `sourceRoot` (keyed by its resolved path).
    public init(folder: String, sourceRoot: String) {
        let resolved = SourceTree.realPath(sourceRoot) ?? sourceRoot
        file = folder + "/stat/" + SHA1.hash(Array(resolved.utf8)) + ".txt"
        loaded = Self.load(file, root: resolved)
    }

    /// The cached sha when the file's stamps are exactly the ones it was hashed with.
    public func sha(for source: SourceFile) -> String? {
        guard let entry = loaded[source.relativePath], entry.stamp == source.stamp else { return nil }
        return entry.sha
    }

    public func record(_ source: SourceFile, sha: String) {
        lock.withLock { recorded[source.relativePath] = Entry(sha: sha, stamp: source.stamp) }
    }

    /// Writes the entries recorded by this import (atomically), keeping only files whose
    /// stamps predate `scanStart`.
    public func save(root: String, scanStart: Int64) throws {
        let trustedBefore = scanStart - Self.racyMarginNanoseconds
        // An unchanged tree leaves the cache as it is: a re-run writes nothing at all.
        if lock.withLock({ recorded.count == loaded.count && recorded.allSatisfy { path, entry in
            loaded[path].map { $0.sha == entry.sha && $0.stamp == entry.stamp } ?? false
        } }) { return }
        var text = Self.header + "\t" + (SourceTree.realPath(root) ?? root) + "\n"
        for (path, entry) in lock.withLock({ recorded }).sorted(by: { $0.key < $1.key })
        where entry.stamp.mtimeNanoseconds < trustedBefore && entry.stamp.ctimeNanoseconds < trustedBefore {
            let s = entry.stamp
            text += "\(entry.sha)\t\(s.size)\t\(s.mtimeNanoseconds)\t\(s.ctimeNanoseconds)\t\(s.inode)\t\(s.device)\t\(path)\n"
        }
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = file + ".tmp-\(getpid())"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, file) == 0 else {
            throw ZincError.io(path: file, operation: "rename into place", errno: errno)
        }
    }

    /// The entries of a well-formed cache file for `root`; anything else yields none.
    /// Parsed as bytes: a tree of 100,000 files has a cache of that many lines.
    private static func load(_ file: String, root: String) -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: file) else { return [:] }
        let bytes = [UInt8](data)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, first.elementsEqual((header + "\t" + root).utf8), lines.last?.isEmpty == true else {
            return [:]
        }
        lines.removeFirst()
        lines.removeLast()
        var entries = [String: Entry]()
        entries.reserveCapacity(lines.count)
        for line in lines {
            let fields = line.split(separator: 0x09, maxSplits: 6, omittingEmptySubsequences: false)
            guard fields.count == 7, let path = String(validating: fields[6], as: UTF8.self), !path.isEmpty,
                  let sha = String(validating: fields[0], as: UTF8.self), Names.isSHA1(sha),
                  let size = number(fields[1]), let mtime = number(fields[2]), let ctime = number(fields[3]),
                  let inode = number(fields[4]), let device = number(fields[5]) else { return [:] }
            entries[path] = Entry(sha: sha, stamp: FileStamp(size: size, mtimeNanoseconds: mtime, ctimeNanoseconds: ctime,
                                                             inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device)))
        }
        return entries
    }

    /// A decimal integer, as `save` writes it (inodes and devices may use all 64 bits).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        let text = String(decoding: digits, as: UTF8.self)
        return Int64(text) ?? UInt64(text).map { Int64(bitPattern: $0) }
    }

    /// The current wall clock in ns, comparable with file timestamps.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
