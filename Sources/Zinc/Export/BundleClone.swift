#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the files of one bundle version into a new folder below `destination`,
/// gunzipping gz objects and checking every file's SHA-1 (`clone_bundle`). It only reads
/// the catalog, so it has no plan: ``run()`` is the whole operation.
///
/// A manifest is data from a server, so nothing it says may place a file outside
/// that folder: every path is validated again here, the bundle is built in a fresh
/// staging folder that only this process can enter (so no symlink can be planted in
/// it), and it is renamed into place only when every file is verified. Whatever is
/// already at the folder's (or the manifest file's) place, even a symlink, is refused
/// and never written into or through. An interrupted clone leaves at most a hidden
/// `.<folder>.tmp-*` staging folder, never a partial bundle folder.
public struct BundleClone: Sendable {
    private let catalog: Catalog
    private let bundle: String
    private let spec: VersionSpec
    private let destination: String
    private let options: BundleCloneOptions

    /// - Parameters:
    ///   - catalog: the catalog to read.
    ///   - bundle: the bundle's name.
    ///   - spec: the version to clone.
    ///   - destination: the folder the bundle's folder is made in.
    ///   - options: the flavor, the manifest, progress and threads.
    public init(
        _ catalog: Catalog, bundle: String, version spec: VersionSpec, into destination: String,
        options: BundleCloneOptions = BundleCloneOptions()
    ) {
        self.catalog = catalog
        self.bundle = bundle
        self.spec = spec
        self.destination = destination
        self.options = options
    }

    @discardableResult
    public func run() throws -> BundleCloneResult {
        if let flavor = options.flavor { try Names.validateFlavorName(flavor) }
        let manifest = try catalog.manifest(bundle: bundle, resolving: spec)
        let paths = try manifest.paths(ofExistingFlavor: options.flavor)
        for path in paths { try Names.validateRelativePath(path) }
        // The folder is named after the catalog id, which a foreign index could make a path of.
        let catalogID = try catalog.index().id
        try Names.validateCatalogID(catalogID)

        let root = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        let descriptor = "\(catalogID).\(bundle)-\(manifest.version)" + (options.flavor.map { "~" + $0 } ?? "")
        let folder = root + "/" + descriptor
        let manifestFile = options.includeManifest ? folder + ".json" : nil
        try StagingFolder.createFolders(root.split(separator: "/"), in: root.hasPrefix("/") ? "" : ".")
        try Self.refuseExisting(folder)
        if let manifestFile { try Self.refuseExisting(manifestFile) }

        let staging = try StagingFolder(in: root, for: descriptor)
        defer { staging.remove() }
        let tree = staging.path + "/tree"
        guard mkdir(tree, 0o755) == 0 else { throw ZincError.io(path: tree, operation: "create folder", errno: errno) }
        let objects = paths.map { manifest.files[$0]!.object }
        let counter = ProgressCounter<CloneProgress>(
            (), totalItems: paths.count,
            totalBytes: objects.reduce(0) { $0 + $1.preferredSize }, report: options.progress)
        _ = try parallelMap(count: paths.count, workers: options.workers) { i in
            let bytes = try self.extract(objects[i], path: paths[i], into: tree, via: staging.path + "/\(i).part")
            counter.finishedItem(bytes: bytes)
        }

        if let manifestFile {
            let written = staging.path + "/manifest.json"
            try PosixFile.open(written, flags: O_WRONLY | O_CREAT | O_EXCL).write(manifest.encoded())
            try Self.linkNew(written, to: manifestFile, ifTaken: Self.alreadyExists(manifestFile))
        }
        do {
            try Self.refuseExisting(folder)
            guard rename(tree, folder) == 0 else {
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
            try StagingFolder.createFolders(path.split(separator: "/").dropLast(), in: tree)
        } catch let error as ZincError where error.errno == ENOTDIR {
            throw Self.collision(path)
        }
        let (reader, format, storedPath) = try openObject(object, for: path)
        let output = try PosixFile.open(part, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        let decoder = StoredObjectDecoder(format: format) { try output.write($0) }
        var storedBytes: Int64 = 0
        let sha: String
        do {
            try reader.forEachChunk { chunk in
                storedBytes += Int64(chunk.count)
                try decoder.update(chunk)
            }
            sha = try decoder.finish()
        } catch let failure as GzipDecompressor.Failure {
            throw ZincError.integrity(
                path: catalog.storage.location + "/" + storedPath,
                reason: "\(failure)")
        }
        guard sha == object.sha else {
            throw ZincError.integrity(
                path: catalog.storage.location + "/" + storedPath,
                reason: "its content has SHA-1 \(sha), but the manifest records \(object.sha) for '\(path)'")
        }
        try Self.linkNew(part, to: tree + "/" + path, ifTaken: Self.collision(path))
        unlink(part)
        return storedBytes
    }

    /// Opens the object in the first format the manifest lists that is stored, `gz` first.
    private func openObject(_ object: StoredObject, for path: String) throws -> (StorageReader, ObjectFormat, String) {
        for format in object.formats.keys.sorted() {
            let storedPath = StoredObject.path(digest: object.digest, format: format)
            if let reader = try catalog.storage.openForReading(storedPath) { return (reader, format, storedPath) }
        }
        throw ZincError.integrity(path: catalog.storage.location, reason: "object \(object.sha) of '\(path)' is missing")
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
        .invalidPath(
            path,
            reason:
                "another file of the clone already takes its place (on a case-insensitive file system, names differing only in case collide)"
        )
    }

    private static func refuseExisting(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw ZincError.io(path: path, operation: "check", errno: errno)
        }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw ZincError.cloneDestinationIsSymlink(path)
        }
        throw alreadyExists(path)
    }

    private static func alreadyExists(_ path: String) -> ZincError {
        .cloneDestinationExists(path)
    }
}
