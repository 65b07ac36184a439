import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A catalog in a local folder. Every file is written under a temporary name in its
/// final folder and renamed into place, so readers (and a CDN syncing the folder)
/// never see half a file; `flush` is one `syncfs` for the whole batch instead of one
/// fsync per object.
public final class FileStorage: CatalogStorage, @unchecked Sendable {
    public let root: String
    public var location: String { root }

    /// Hidden from listings and from `zinc serve`; also the writer lock.
    public static let lockFileName = ".zinc.lock"
    static let temporaryMarker = ".tmp-"

    public init(root: String) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
    }

    func absolute(_ path: String) -> String { root + "/" + path }

    public func read(_ path: String) throws -> [UInt8]? {
        guard let reader = try openFile(path) else { return nil }
        var bytes = [UInt8]()
        try reader.forEachChunk(chunkSize: 1 << 16) { bytes.append(contentsOf: $0) }
        return bytes
    }

    public func openForReading(_ path: String) throws -> StorageReader? {
        try openFile(path)
    }

    private func openFile(_ path: String) throws -> PosixFile? {
        do {
            return try PosixFile.open(absolute(path))
        } catch ZincError.io(_, _, let code) where code == ENOENT || code == ENOTDIR {
            return nil
        }
    }

    public func size(of path: String) throws -> Int64? {
        var st = stat()
        if stat(absolute(path), &st) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw ZincError.io(path: absolute(path), operation: "stat", errno: errno)
        }
        return (st.st_mode & S_IFMT) == S_IFREG ? Int64(st.st_size) : nil
    }

    public func list(_ folder: String) throws -> [String] {
        var results = [String]()
        func walk(_ relative: String) throws {
            guard let dir = opendir(absolute(relative)) else {
                if errno == ENOENT || errno == ENOTDIR { return }
                throw ZincError.io(path: absolute(relative), operation: "list", errno: errno)
            }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name.hasPrefix(".") { continue }
                let child = relative + "/" + name
                var st = stat()
                guard lstat(absolute(child), &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR: try walk(child)
                case S_IFREG: results.append(child)
                default: continue
                }
            }
        }
        try walk(folder)
        return results.sorted()
    }

    public func delete(_ path: String) throws {
        if unlink(absolute(path)) != 0 && errno != ENOENT {
            throw ZincError.io(path: absolute(path), operation: "delete", errno: errno)
        }
    }

    public func makeWriter(for path: String) throws -> StorageWriter {
        try FileStorageWriter(storage: self, path: path)
    }

    public func flush() throws {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ZincError.io(path: root, operation: "open", errno: errno) }
        defer { close(fd) }
        #if os(Linux)
        guard KernelCalls.syncfs(fd) == 0 else { throw ZincError.io(path: root, operation: "sync", errno: errno) }
        #else
        guard fsync(fd) == 0 else { throw ZincError.io(path: root, operation: "sync", errno: errno) }
        #endif
    }

    public func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        try createFolders(root)
        let lock = try PosixFile.open(absolute(Self.lockFileName), flags: O_RDWR | O_CREAT)
        while flock(lock.fd, LOCK_EX) != 0 {
            if errno != EINTR { throw ZincError.io(path: lock.path, operation: "lock", errno: errno) }
        }
        defer { flock(lock.fd, LOCK_UN) }
        return try body()
    }

    func createParentFolders(of path: String) throws {
        let final = absolute(path)
        try createFolders(String(final[..<final.lastIndex(of: "/")!]))
    }

    /// `mkdir -p`.
    private func createFolders(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw ZincError.io(path: current, operation: "create folder", errno: errno)
            }
        }
    }
}

/// A file being written under a temporary name beside its final one.
final class FileStorageWriter: StorageWriter {
    let path: String
    private let storage: FileStorage
    private let file: PosixFile
    private let temporaryPath: String
    private var open = true
    private(set) var bytesWritten: Int64 = 0

    init(storage: FileStorage, path: String) throws {
        self.storage = storage
        self.path = path
        try storage.createParentFolders(of: path)
        let final = storage.absolute(path)
        let folder = final[..<(final.lastIndex(of: "/") ?? final.startIndex)]
        let name = final[final.index(after: final.lastIndex(of: "/") ?? final.startIndex)...]
        temporaryPath = "\(folder)/.\(name)\(FileStorage.temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        file = try PosixFile.open(temporaryPath, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
    }

    deinit { discard() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try file.write(bytes)
        bytesWritten += Int64(bytes.count)
    }

    func append(storedFile path: String) throws {
        let source = try PosixFile.open(storage.absolute(path))
        let before = try file.status().st_size
        try file.appendContents(of: source)
        bytesWritten += Int64(try file.status().st_size - before)
    }

    func append(localFile: PosixFile) throws {
        let before = try file.status().st_size
        try file.appendContents(of: localFile)
        bytesWritten += Int64(try file.status().st_size - before)
    }

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        precondition(open, "commit on a closed writer")
        let final = storage.absolute(path)
        defer { discard() }
        switch condition {
        case .always:
            break
        case .ifAbsent:
            // link() refuses to replace: the object written first stays, byte for byte.
            if link(temporaryPath, final) != 0 {
                if errno == EEXIST { return .conditionFailed }
                throw ZincError.io(path: final, operation: "create", errno: errno)
            }
            return .written
        case .ifUnchanged(let expected):
            // Callers hold the catalog lock, so nothing changes between this read and the rename.
            guard try storage.read(path) == expected else { return .conditionFailed }
        }
        guard rename(temporaryPath, final) == 0 else {
            throw ZincError.io(path: final, operation: "rename into place", errno: errno)
        }
        open = false
        return .written
    }

    func discard() {
        guard open else { return }
        open = false
        unlink(temporaryPath)
    }
}

extension PosixFile: StorageReader {}
