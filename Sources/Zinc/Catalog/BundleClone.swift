import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options of `clone_bundle`.
public struct BundleCloneOptions: Sendable {
    /// Clone only the files of this flavor.
    public var flavor: String?
    /// Also write the version's manifest beside the bundle folder, as `<folder>.json`.
    public var includeManifest: Bool
    /// Told about each file as it is written (from worker threads), for progress displays.
    public var progress: (@Sendable (CloneProgress) -> Void)?

    public init(flavor: String? = nil, includeManifest: Bool = false, progress: (@Sendable (CloneProgress) -> Void)? = nil) {
        self.flavor = flavor
        self.includeManifest = includeManifest
        self.progress = progress
    }
}

/// How far a clone is. Bytes are the stored bytes read from the catalog (the compressed
/// size for gz objects), the only sizes a manifest records.
public struct CloneProgress: Sendable {
    public let completedFiles: Int
    public let totalFiles: Int
    public let completedBytes: Int64
    public let totalBytes: Int64
}

public struct BundleCloneResult: Equatable, Sendable {
    public let version: Int
    /// `<destination>/<catalog id>.<bundle>-<version>[~<flavor>]`, as clients name a bundle.
    public let folder: String
    /// `<folder>.json`, when the manifest was asked for.
    public let manifestFile: String?
    public let fileCount: Int
}

extension Catalog {
    /// Writes the files of one bundle version into a new folder below `destination`,
    /// gunzipping gz objects and checking every file's SHA-1.
    ///
    /// A manifest is data from a server, so nothing it says may place a file outside
    /// that folder: every path is validated again here, the bundle is built in a fresh
    /// staging folder that only this process can enter (so no symlink can be planted in
    /// it), and it is renamed into place only when every file is verified. Whatever is
    /// already at the folder's (or the manifest file's) place, even a symlink, is refused
    /// and never written into or through. An interrupted clone leaves at most a hidden
    /// `.<folder>.tmp-*` staging folder, never a partial bundle folder.
    public func cloneBundle(_ name: String, version spec: VersionSpec, into destination: String,
                            options: BundleCloneOptions = BundleCloneOptions()) throws -> BundleCloneResult {
        if let flavor = options.flavor { try Names.validateFlavorName(flavor) }
        let manifest = try self.manifest(bundle: name, resolving: spec)
        let paths = try manifest.paths(ofExistingFlavor: options.flavor)
        for path in paths { try Names.validateRelativePath(path) }
        // The folder is named after the catalog id, which a foreign index could make a path of.
        let catalogID = try index().id
        try Names.validateCatalogID(catalogID)

        let root = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        let descriptor = "\(catalogID).\(name)-\(manifest.version)" + (options.flavor.map { "~" + $0 } ?? "")
        let folder = root + "/" + descriptor
        let manifestFile = options.includeManifest ? folder + ".json" : nil
        try Self.createFolders(root.split(separator: "/"), in: root.hasPrefix("/") ? "" : ".")
        try Self.refuseExisting(folder)
        if let manifestFile { try Self.refuseExisting(manifestFile) }

        let staging = try StagingFolder(in: root, for: descriptor)
        defer { staging.remove() }
        let objects = paths.map { manifest.files[$0]!.object }
        let tally = options.progress.map {
            CloneTally(totalFiles: paths.count, totalBytes: objects.reduce(0) { $0 + $1.preferredSize }, report: $0)
        }
        _ = try parallelMap(count: paths.count) { i in
            let bytes = try extract(objects[i], path: paths[i], into: staging.tree, via: staging.path + "/\(i).part")
            tally?.add(bytes: bytes)
        }

        if let manifestFile {
            let written = staging.path + "/manifest.json"
            try PosixFile.open(written, flags: O_WRONLY | O_CREAT | O_EXCL).write(manifest.encoded())
            try Self.linkNew(written, to: manifestFile, ifTaken: Self.alreadyExists(manifestFile))
        }
        do {
            try Self.refuseExisting(folder)
            guard rename(staging.tree, folder) == 0 else {
                let code = errno
                if code == EEXIST || code == ENOTEMPTY { throw Self.alreadyExists(folder) }
                throw ZincError.io(path: folder, operation: "rename into place", errno: code)
            }
        } catch {
            if let manifestFile { unlink(manifestFile) }
            throw error
        }
        return BundleCloneResult(version: manifest.version, folder: folder, manifestFile: manifestFile, fileCount: paths.count)
    }

    /// Streams one object into `part` (gunzipping a gz object), checks its SHA-1, then
    /// links it to `path` in the tree. Returns the stored bytes read.
    private func extract(_ object: StoredObject, path: String, into tree: String, via part: String) throws -> Int64 {
        do {
            try Self.createFolders(path.split(separator: "/").dropLast(), in: tree)
        } catch ZincError.io(_, _, let code) where code == ENOTDIR {
            throw Self.collision(path)
        }
        let (reader, format, storedPath) = try openObject(object, for: path)
        let output = try PosixFile.open(part, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        let hasher = SHA1()
        let sink: (UnsafeRawBufferPointer) throws -> Void = { chunk in
            hasher.update(chunk)
            try output.write(chunk)
        }
        var storedBytes: Int64 = 0
        switch format {
        case .raw:
            try reader.forEachChunk { chunk in
                storedBytes += Int64(chunk.count)
                try sink(chunk)
            }
        case .gz:
            let gunzip = GzipDecompressor(sink: sink)
            do {
                try reader.forEachChunk { chunk in
                    storedBytes += Int64(chunk.count)
                    try gunzip.update(chunk)
                }
                try gunzip.finish()
            } catch let failure as GzipDecompressor.Failure {
                throw ZincError.integrity(path: storage.location + "/" + storedPath,
                                          reason: "not one valid gzip stream (\(failure))")
            }
        }
        let sha = hasher.finalize()
        guard sha == object.sha else {
            throw ZincError.integrity(path: storage.location + "/" + storedPath,
                                      reason: "its content has SHA-1 \(sha), but the manifest records \(object.sha) for '\(path)'")
        }
        try Self.linkNew(part, to: tree + "/" + path, ifTaken: Self.collision(path))
        unlink(part)
        return storedBytes
    }

    /// Opens the object in the first format the manifest lists that is stored, `gz` first.
    private func openObject(_ object: StoredObject, for path: String) throws -> (StorageReader, ObjectFormat, String) {
        for format in object.formats.keys.sorted() {
            let storedPath = StoredObject.path(sha: object.sha, format: format)
            if let reader = try storage.openForReading(storedPath) { return (reader, format, storedPath) }
        }
        throw ZincError.integrity(path: storage.location, reason: "object \(object.sha) of '\(path)' is missing")
    }

    /// `mkdir -p` of `components` below the existing folder `base`. Something other than
    /// a folder in the way is ENOTDIR, whichever component it is.
    private static func createFolders<Components: Sequence<Substring>>(_ components: Components, in base: String) throws {
        var folder = base
        var st = stat()
        for component in components {
            folder += "/" + component
            guard mkdir(folder, 0o755) != 0 else { continue }
            var code = errno
            if code == EEXIST {
                // A folder will do, or a link to one: the user may reach DEST through links.
                guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { continue }
                code = ENOTDIR
            }
            throw ZincError.io(path: folder, operation: "create folder", errno: code)
        }
    }

    /// Gives `file` a second name that must be new: unlike rename, link never replaces,
    /// so two manifest paths that one file system takes for the same name (`A.png` and
    /// `a.png` on a case-insensitive volume) fail instead of losing a file.
    private static func linkNew(_ file: String, to target: String, ifTaken taken: @autoclosure () -> ZincError) throws {
        guard link(file, target) == 0 else {
            let code = errno
            if code == EEXIST || code == ENOTDIR { throw taken() }
            throw ZincError.io(path: target, operation: "create", errno: code)
        }
    }

    private static func collision(_ path: String) -> ZincError {
        .invalidPath(path, reason: "another file of the clone already takes its place (on a case-insensitive file system, names differing only in case collide)")
    }

    private static func refuseExisting(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw ZincError.io(path: path, operation: "check", errno: errno)
        }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw ZincError.invalidArgument("'\(path)' is a symlink; a clone never writes through one")
        }
        throw alreadyExists(path)
    }

    private static func alreadyExists(_ path: String) -> ZincError {
        .invalidArgument("'\(path)' already exists; remove it or clone into another folder")
    }
}

/// A private folder beside the clone's final place, so the last step is one rename
/// within a file system. mkdtemp makes it mode 0700: no other user can put anything in it.
private struct StagingFolder {
    let path: String
    /// The bundle folder being built.
    var tree: String { path + "/tree" }

    init(in parent: String, for name: String) throws {
        var template = Array("\(parent)/.\(name).tmp-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ZincError.io(path: parent, operation: "create a staging folder in", errno: errno)
        }
        path = String(cString: made)
        guard mkdir(path + "/tree", 0o755) == 0 else {
            throw ZincError.io(path: path + "/tree", operation: "create folder", errno: errno)
        }
    }

    /// Removes what is left after success (the emptied staging folder) or failure (all of it).
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Adds up finished files across worker threads for `BundleCloneOptions.progress`.
private final class CloneTally: @unchecked Sendable {
    private let lock = NSLock()
    private let report: @Sendable (CloneProgress) -> Void
    private var progress: CloneProgress

    init(totalFiles: Int, totalBytes: Int64, report: @escaping @Sendable (CloneProgress) -> Void) {
        self.report = report
        progress = CloneProgress(completedFiles: 0, totalFiles: totalFiles, completedBytes: 0, totalBytes: totalBytes)
    }

    func add(bytes: Int64) {
        let snapshot: CloneProgress = lock.withLock {
            progress = CloneProgress(completedFiles: progress.completedFiles + 1, totalFiles: progress.totalFiles,
                                     completedBytes: progress.completedBytes + bytes, totalBytes: progress.totalBytes)
            return progress
        }
        report(snapshot)
    }
}
