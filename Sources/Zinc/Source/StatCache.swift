#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
///
/// The cache also records a digest of the manifest the tree was last found equal to
/// (`matchedManifest`): when every file hits and that manifest is still the newest
/// version, an import knows the tree is unchanged without parsing the manifest.
///
/// Every source path ever imported gets a cache file, temporary checkouts included, so
/// saving one also deletes, at most once a day, those neither read nor written for
/// `staleAfterDays` days.
package struct StatCache: Sendable {
    private static let header = "zinc-stat-cache 2"
    private static let matchedPrefix = "matched\t"
    /// Timestamps this close to the scan's start are not trusted (coarse kernel clocks).
    private static let racyMarginNanoseconds: Int64 = 50_000_000
    package static let staleAfterDays = 30
    /// In the cache folder; its modification time is that of the last pruning.
    private static let prunedMarker = ".pruned"

    package let file: String
    private let root: String

    package static var defaultFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["ZINC_CACHE_DIR"], !folder.isEmpty { return folder }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/zinc" }
        // $HOME first: the user database (nsswitch, passwd, a socket to nscd) is a
        // noticeable part of re-importing an unchanged tree.
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/zinc" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/zinc"
    }

    /// The cache of the source tree at `sourceRoot` (keyed by its resolved path).
    package init(folder: String, sourceRoot: String) {
        root = SourceTree.realPath(sourceRoot) ?? sourceRoot
        file = folder + "/stat/" + SHA1.hash(Array(root.utf8)) + ".txt"
    }

    /// What the cache knows about `files` (sorted by path, as `SourceTree.scan` returns
    /// them): for each, the sha when its stamps are exactly the ones it was hashed
    /// with. The cache file is sorted the same way, so one merging pass over its lines,
    /// as they are read, answers all: neither the file (12 MB for 100,000 files) nor a
    /// table of its entries is held.
    package func lookup(_ files: [SourceFile]) -> Lookup {
        let empty = Lookup(digests: Array(repeating: nil, count: files.count), entries: 0, matchedManifest: nil)
        guard let cache = try? PosixFile.open(file) else { return empty }
        var result = empty
        var lineNumber = 0
        var next = 0
        let complete = try? cache.forEachLine { line in
            defer { lineNumber += 1 }
            switch lineNumber {
            case 0:
                return line.elementsEqual((Self.header + "\t" + root).utf8)
            case 1:
                guard line.starts(with: Self.matchedPrefix.utf8) else { return false }
                let matched = String(decoding: line.dropFirst(Self.matchedPrefix.utf8.count), as: UTF8.self)
                if Names.isSHA1(matched) { result.matchedManifest = matched }
                return true
            default:
                guard let entry = Self.entry(line) else { return false }
                result.entries += 1
                while next < files.count && Self.precedes(files[next].relativePath.utf8, entry.path) { next += 1 }
                if next < files.count, files[next].relativePath.utf8.elementsEqual(entry.path), files[next].stamp == entry.stamp {
                    result.digests[next] = entry.digest
                }
                return true
            }
        }
        // Damaged (a bad line, no header, cut short): trusted in no part.
        guard complete == true, lineNumber >= 2 else { return empty }
        return result
    }

    /// What the cache knows of the files of one import.
    package struct Lookup: Sendable {
        /// Per file, the cached SHA-1, or nil when the file must be hashed.
        package var digests: [SHA1.Digest?]
        /// How many entries the cache file held.
        package var entries: Int
        /// The digest (see `save`) of the manifest the cached tree was found equal to.
        package var matchedManifest: String?

        /// Whether the cache already says everything an import of these files would write.
        package var coversAll: Bool { entries == digests.count && digests.allSatisfy { $0 != nil } }
    }

    /// Writes the cache for `files` and their `digests` (atomically), keeping only files
    /// whose stamps predate `scanStart`. `matchedManifest` is an opaque SHA-1 digest
    /// naming the manifest these files were found equal to; when it is not known yet,
    /// the returned `SavedStatCache` records it later.
    @discardableResult
    package func save(
        _ files: [SourceFile], digests: [SHA1.Digest], scanStart: Int64,
        matchedManifest: String? = nil
    ) throws -> SavedStatCache {
        let trustedBefore = scanStart - Self.racyMarginNanoseconds
        let folder = String(file[..<file.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = file + ".tmp-\(getpid())"
        let output = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        do {
            let matchedLine = Self.header + "\t" + root + "\n" + Self.matchedPrefix
            // Fixed width, so that `SavedStatCache.recordMatch` can fill it in place.
            var text = matchedLine + (matchedManifest ?? String(repeating: "-", count: 40)) + "\n"
            for (file, digest) in zip(files, digests)
            where file.stamp.mtimeNanoseconds < trustedBefore && file.stamp.ctimeNanoseconds < trustedBefore {
                let s = file.stamp
                text +=
                    "\(digest)\t\(s.size)\t\(s.mtimeNanoseconds)\t\(s.ctimeNanoseconds)\t\(s.inode)\t\(s.device)\t\(file.relativePath)\n"
                if text.utf8.count > 1 << 16 {
                    try output.write(Array(text.utf8))
                    text = ""
                }
            }
            try output.write(Array(text.utf8))
            guard rename(temporary, self.file) == 0 else { throw ZincError.io(path: self.file, operation: "rename", errno: errno) }
            Self.pruneStale(in: folder)
            return SavedStatCache(output, matchedOffset: Int64(matchedLine.utf8.count))
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Deletes the cache files of `folder` last read or written more than `staleAfterDays`
    /// ago, unless that was done less than a day ago. Best effort: a file it cannot
    /// delete stays, and a cache deleted under a running import only costs a re-hash.
    /// (On a file system mounted `noatime`, a tree re-imported unchanged for that long
    /// loses its cache once.)
    private static func pruneStale(in folder: String) {
        let now = time(nil)
        let marker = folder + "/" + prunedMarker
        var st = stat()
        if stat(marker, &st) == 0 && st.modificationTime.tv_sec > now - 24 * 3600 { return }
        let fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        futimens(fd, nil)
        close(fd)
        let staleBefore = now - time_t(staleAfterDays) * 24 * 3600
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
            let path = folder + "/" + name
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                max(st.accessTime.tv_sec, st.modificationTime.tv_sec) < staleBefore
            {
                unlink(path)
            }
        }
    }

    private struct Entry {
        let path: ArraySlice<UInt8>
        let digest: SHA1.Digest
        let stamp: FileStamp
    }

    /// One line as `save` writes it; nil for anything else.
    private static func entry(_ line: ArraySlice<UInt8>) -> Entry? {
        let fields = line.split(separator: 0x09, maxSplits: 6, omittingEmptySubsequences: false)
        guard fields.count == 7, !fields[6].isEmpty,
            let digest = SHA1.Digest(hexUTF8: fields[0]),
            let size = number(fields[1]), let mtime = number(fields[2]), let ctime = number(fields[3]),
            let inode = number(fields[4]), let device = number(fields[5])
        else { return nil }
        return Entry(
            path: fields[6], digest: digest,
            stamp: FileStamp(
                size: size, mtimeNanoseconds: mtime, ctimeNanoseconds: ctime,
                inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device)))
    }

    private static func precedes(_ a: String.UTF8View, _ b: ArraySlice<UInt8>) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// A decimal integer, as `save` writes it: an optional minus sign, then digits
    /// (inodes and devices may use all 64 bits, so the digits go up to UInt64.max).
    /// Parsed in place: a re-run reads five per file.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        let negative = digits.first == UInt8(ascii: "-")
        let body = negative ? digits.dropFirst() : digits
        guard !body.isEmpty, body.count <= 20 else { return nil }
        var value: UInt64 = 0
        for digit in body {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        if negative { return value <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- value) : nil }
        return Int64(bitPattern: value)
    }

    /// The current wall clock in ns, comparable with file timestamps.
    package static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// A stat cache file just saved, still open: the manifest its tree turns out to equal
/// can be recorded once known, without writing the file again. The write goes to the
/// file this import saved, even if another import has replaced it since.
package final class SavedStatCache: Sendable {
    private let file: PosixFile
    private let matchedOffset: Int64

    init(_ file: PosixFile, matchedOffset: Int64) {
        self.file = file
        self.matchedOffset = matchedOffset
    }

    /// Records the digest (40 hex digits) of the manifest the saved files equal.
    package func recordMatch(_ matchedManifest: String) throws {
        precondition(Names.isSHA1(matchedManifest), "a manifest digest is 40 lowercase hex digits")
        try file.write(Array(matchedManifest.utf8), at: matchedOffset)
    }
}
