import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One walk of a checked-out folder, as `git status` walks its tree, merged with the
/// version's files: the folder walked in path order (`PathOrderWalk`: each folder listed
/// once, each file looked at with one `fstatat` relative to it), the version's files
/// given in the same order (from its table read row by row, `ManifestTableRows`), so
/// that one pass over both counts the folder's files and pairs each expected file with
/// what is there. The files found are judged against their objects' stamps a batch at a
/// time (`FileJudgement`); only a file whose `lstat` is not its object's stamp costs more
/// (a hash, at most). Nothing is held per file: a folder's listing on the way down, and
/// a batch.
struct FolderScan {
    /// The expected files in path order, each given to the function passed: its path's
    /// bytes and its object.
    typealias Files = ((UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) throws -> Void

    /// The regular files under the folder, expected or not, and their bytes.
    private(set) var files = 0
    private(set) var bytes: Int64 = 0
    /// The expected files that are missing, not regular files, or do not hold their
    /// object's bytes, in path order.
    private(set) var damaged = [String]()

    /// Walks `folder`, judging `expected` when given, in batches of `batchSize`. A folder
    /// that cannot be listed counts as empty, its expected files as missing. Throws what
    /// `expected` throws (a row that breaks its table's rules) or a judgement (a file that
    /// cannot be hashed), having judged part of the folder.
    init(_ folder: String, expected: Files?, batchSize: Int = FileJudgement.batchSize, check: inout StoreCheck) throws {
        var walk = PathOrderWalk(folder)
        // Its folders' descriptors, when a failure leaves it before its end.
        defer { walk.stop() }
        var entry = walk.next()
        var (files, bytes) = (0, Int64(0))
        // Steps past the entry the walk gave, counting it.
        func advance() {
            if case .file(let info) = entry {
                files += 1
                bytes += Int64(info.st_size)
            }
            entry = walk.next()
        }
        var judgement = FileJudgement(folder: folder, batchSize: batchSize)
        if let expected {
            // The files are given to a function that cannot throw: the first failure stops
            // the judging, and is thrown once they are all given.
            var failure: (any Error)?
            try expected { path, digest in
                guard failure == nil else { return }
                // The entries before this file: not the version's, counted only.
                while entry != nil, walk.path.withUnsafeBufferPointer({ CompactManifest.compare($0, path) }) < 0 { advance() }
                var found: stat?
                if entry != nil, walk.path.withUnsafeBufferPointer({ CompactManifest.compare($0, path) }) == 0 {
                    if case .file(let info) = entry { found = info }
                    advance()
                }
                do { try judgement.add(path, digest: digest, file: found, check: &check) } catch { failure = error }
            }
            if let failure { throw failure }
            try judgement.finish(check: &check)
        }
        while entry != nil { advance() }
        self.files = files
        self.bytes = bytes
        damaged = judgement.damaged
    }
}
