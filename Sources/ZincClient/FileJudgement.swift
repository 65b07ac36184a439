import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a checked-out folder judged against their objects a batch at a time, as
/// they come in path order: each batch's files sorted by digest and their objects' stamps
/// looked up in one pass forward over the stamps file (`StoreCheck.lookUpStamps(of:_:)`),
/// then the files whose stamp differs judged further (`StoreCheck.holdsUnstamped`), and
/// the damaged ones given in path order. Memory is one batch, whatever the folder holds,
/// where the stamps loaded whole took 56 bytes an object (53.6 MB at 1,000,000) and a
/// lookup in their file a `pread` a file.
///
/// A batch of 16,384: about 2 MB at paths of 27.5 bytes (65,536 held 10 MB of heap, as
/// much as a 100,000-file version's table); a pass over the stamps file for each, 62 of
/// them at 1,000,000 objects (52 MB each, read forward from the page cache).
struct FileJudgement {
    /// The files a batch holds by default.
    static let batchSize = 1 << 14

    private struct Entry {
        let start: UInt32
        let length: UInt32
        /// Nil for a file already found damaged (missing, or not a regular file).
        let file: File?
    }

    private struct File {
        let digest: SHA1.Digest
        /// The file's stamp as looked at.
        let stamp: ObjectStamp
        let device: UInt64
    }

    private let folder: String
    private let batchSize: Int
    /// The batch, in path order, and its paths' bytes.
    private var entries = [Entry]()
    private var paths = [UInt8]()
    /// The paths found damaged, in path order.
    private(set) var damaged = [String]()

    /// Judges files of `folder` in batches of `batchSize`.
    init(folder: String, batchSize: Int = Self.batchSize) {
        self.folder = folder
        self.batchSize = max(1, batchSize)
    }

    /// Adds the file at `path` (under the folder), whose object is `digest`: `file`, its
    /// `lstat`, if it is a regular file, else nil (missing, a folder, a link), which is
    /// damaged. Paths come in path order.
    mutating func add(_ path: UnsafeBufferPointer<UInt8>, digest: SHA1.Digest, file: stat?, check: inout StoreCheck) throws {
        entries.append(
            Entry(
                start: UInt32(paths.count), length: UInt32(path.count),
                file: file.map { File(digest: digest, stamp: ObjectStamp($0), device: UInt64(truncatingIfNeeded: $0.st_dev)) }))
        paths.append(contentsOf: path)
        if entries.count >= batchSize { try judge(check: &check) }
    }

    /// Judges what is left: after the last file.
    mutating func finish(check: inout StoreCheck) throws {
        try judge(check: &check)
    }

    private mutating func judge(check: inout StoreCheck) throws {
        guard !entries.isEmpty else { return }
        try judgeBatch(check: &check)
        entries.removeAll(keepingCapacity: true)
        paths.removeAll(keepingCapacity: true)
    }

    /// Adds the batch's damaged files to `damaged`, in path order.
    private mutating func judgeBatch(check: inout StoreCheck) throws {
        // The lookup's lazy sequence cannot read a mutable `self`: it reads this copy, which
        // shares the batch's storage and is gone before the batch is emptied (which then
        // keeps its room instead of copying it).
        let entries = entries
        // The files by digest, 4 bytes each: the order the stamps file is in.
        var order = entries.indices.filter { entries[$0].file != nil }.map { UInt32($0) }
        order.sort { entries[Int($0)].file!.digest < entries[Int($1)].file!.digest }
        var sound = [Bool](repeating: false, count: entries.count)
        var next = order.makeIterator()
        check.lookUpStamps(of: order.lazy.map { entries[Int($0)].file!.digest }) { recorded in
            guard let i = next.next().map({ Int($0) }) else { return }
            sound[i] = recorded == entries[i].file!.stamp
        }
        for i in order.lazy.map({ Int($0) }) where !sound[i] {
            let file = entries[i].file!
            sound[i] = try check.holdsUnstamped(file.digest, inode: file.stamp.inode, device: file.device, at: "\(folder)/\(path(i))")
        }
        for i in entries.indices where !sound[i] { damaged.append(path(i)) }
    }

    private func path(_ i: Int) -> String {
        String(decoding: paths[Int(entries[i].start)..<Int(entries[i].start + entries[i].length)], as: UTF8.self)
    }
}
