import Zinc

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

/// A local client repo (the talk's Act 4):
///
///     repo.json                                     sources and tracked bundles
///     catalogs/<catalog id>.json                    the last index fetched
///     catalogs/<catalog id>.<bundle>~<distro>.rollout  the distribution's rollout file, as accepted
///     manifests/<catalog id>/<bundle>-<v>.json
///     objects/<sha>                                 uncompressed, verified, read-only
///     chunks/<sha>                                  the chunks of a large object (LocalChunks)
///     bundles/<catalog id>.<bundle>-<v>[~flavor]/   files hard-linked from objects/
///     current/<catalog id>.<bundle>                 a link to the bundle's checked-out folder
///     stamps                                        each object's size and times when verified
///     links.json                                    each host's (or bucket's) measured link
///     tmp/                                          downloads in progress (kept to resume)
///     trash/                                        old version folders, removed by the next sync
///     repo.lock                                     flock: one writer at a time
public struct Repo: Sendable {
    /// The repo's folder, absolute, without a trailing `/` (``folder`` as a URL).
    package let root: String

    /// The repo's folder.
    public var folder: URL { URL(fileURLWithPath: root, isDirectory: true) }

    package static let stateFileName = "repo.json"
    static let lockFileName = "repo.lock"

    /// Opens the existing repo in `folder`, a file URL.
    public init(at folder: URL) throws(SyncError) {
        self = try Repo(at: try Self.localPath(folder))
    }

    /// Opens an existing repo. A relative `path` is taken from the current folder and
    /// kept absolute, so the folders the repo names stay right when the process changes folder.
    package init(at path: String) throws(SyncError) {
        root = Self.absolute(path)
        guard FileManager.default.fileExists(atPath: root + "/" + Self.stateFileName) else {
            throw SyncError(ClientError.repoNotFound(path))
        }
    }

    /// The repo `folder` is in (a bundle folder, the repo itself, or anything below
    /// them), found by looking for `repo.json` beside an `objects/` folder from `folder`
    /// up; nil when there is none.
    package static func discover(from folder: String) throws -> Repo? {
        var candidate = absolute(folder)
        while true {
            var objects = stat()
            if access(candidate + "/" + stateFileName, F_OK) == 0, stat(candidate + "/objects", &objects) == 0,
                objects.st_mode & S_IFMT == S_IFDIR
            {
                return try Repo(at: candidate)
            }
            guard candidate != "/", let slash = candidate.lastIndex(of: "/") else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    /// Creates a repo in `folder`, a file URL: its folders and a `repo.json` with no
    /// bundle and `install` (nil: a random id, no attributes) as who the repo is to
    /// rollouts; refuses a folder that already holds a repo.
    @discardableResult
    public static func initialize(at folder: URL, install: InstallIdentity? = nil) throws(SyncError) -> Repo {
        try initialize(at: try localPath(folder), install: install)
    }

    /// ``initialize(at:install:)`` for a path (a relative one taken from the current folder).
    @discardableResult
    package static func initialize(at path: String, install: InstallIdentity? = nil) throws(SyncError) -> Repo {
        let root = absolute(path)
        if FileManager.default.fileExists(atPath: root + "/" + stateFileName) { throw SyncError(ClientError.repoExists(path)) }
        for folder in ["", "/catalogs", "/manifests", "/objects", "/chunks", "/bundles", "/tmp"] {
            do {
                try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
            } catch {
                throw SyncError(ZincError.io(path: root + folder, operation: "create folder", errno: EACCES))
            }
        }
        do {
            try RepoState(install: try install ?? InstallIdentity(id: InstallIdentity.randomID())).save(in: root)
        } catch {
            throw SyncError(error)
        }
        return try Repo(at: root)
    }

    /// The path of the file URL an app gave for a local folder; any other URL is refused.
    static func localPath(_ url: URL) throws(SyncError) -> String {
        guard url.isFileURL else { throw SyncError(ClientError.notAFolderURL(url.absoluteString)) }
        return url.path
    }

    /// `path` without a trailing `/`, taken from the current folder when relative.
    static func absolute(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard !trimmed.hasPrefix("/") else { return trimmed }
        let here = FileManager.default.currentDirectoryPath
        return trimmed == "." ? here : here + "/" + trimmed
    }

    var catalogsFolder: String { root + "/catalogs" }
    var manifestsFolder: String { root + "/manifests" }
    var objectsFolder: String { root + "/objects" }
    /// Made by `initialize`, or (repos made before chunks) by the first record written.
    var chunksFolder: String { root + "/chunks" }
    var bundlesFolder: String { root + "/bundles" }
    var temporaryFolder: String { root + "/tmp" }

    func catalogFile(_ catalogID: String) -> String { "\(catalogsFolder)/\(catalogID).json" }
    /// The rollout file of `bundle`'s distribution `distro` last accepted.
    func rolloutFile(_ catalogID: String, bundle: String, distro: String) -> String {
        "\(catalogsFolder)/\(catalogID).\(bundle)~\(distro).rollout"
    }
    func manifestFile(_ catalogID: String, bundle: String, version: Int) -> String {
        "\(manifestsFolder)/\(catalogID)/\(bundle)-\(version).json"
    }
    /// The digest list (`DigestList`) of a version whose version signature was checked, beside its manifest.
    func digestListFile(_ catalogID: String, bundle: String, version: Int) -> String {
        "\(manifestsFolder)/\(catalogID)/\(bundle)-\(version).digests"
    }
    /// The binary form of a kept manifest's `CompactManifest`, beside it (`ManifestTable`).
    func manifestTableFile(_ catalogID: String, bundle: String, version: Int) -> String {
        "\(manifestsFolder)/\(catalogID)/\(bundle)-\(version).table"
    }
    func objectFile(_ sha: String) -> String { "\(objectsFolder)/\(sha)" }
    func chunkRecordFile(_ sha: String) -> String { "\(chunksFolder)/\(sha)" }

    /// The kept manifest (plain JSON) of a version, to read as a stream (`copy` given each
    /// piece as it is read); nil when the repo has none.
    func keptManifest(
        catalog: String, bundle: String, version: Int, copy: ((UnsafeRawBufferPointer) throws -> Void)? = nil
    ) throws -> StreamedDocument? {
        let path = manifestFile(catalog, bundle: bundle, version: version)
        do {
            return try StreamedDocument(path: path, name: path, gzipped: false, copy: copy)
        } catch let error as ZincError where error.errno == ENOENT {
            return nil
        }
    }

    /// `<catalog id>.<bundle>-<v>[~flavor]`, the folder name clients use.
    static func descriptor(catalog: String, bundle: String, version: Int, flavor: String?) -> String {
        "\(catalog).\(bundle)-\(version)" + (flavor.map { "~" + $0 } ?? "")
    }

    /// The folder holding one version (and flavor) of a bundle in this repo.
    public func bundleFolder(catalog: String, bundle: String, version: Int, flavor: String? = nil) -> URL {
        URL(fileURLWithPath: bundlePath(catalog: catalog, bundle: bundle, version: version, flavor: flavor), isDirectory: true)
    }

    /// ``bundleFolder(catalog:bundle:version:flavor:)`` as a path.
    package func bundlePath(catalog: String, bundle: String, version: Int, flavor: String?) -> String {
        bundlesFolder + "/" + Self.descriptor(catalog: catalog, bundle: bundle, version: version, flavor: flavor)
    }

    /// The repo's bookkeeping: the catalogs and bundles it tracks.
    package func loadState() throws -> RepoState {
        try RepoState.load(from: root)
    }

    /// Sets who the repo is to rollouts from now on: an app's own id (a user's, so that
    /// one person's devices move together) and the attributes it keeps.
    public func setInstall(_ install: InstallIdentity) throws(SyncError) {
        do {
            try withLock(exclusive: true) {
                var state = try loadState()
                state.install = install
                try state.save(in: root)
            }
        } catch {
            throw SyncError(error, repo: self)
        }
    }

    /// Runs `body` holding `repo.lock`: exclusive for anything that writes, shared for
    /// readers. Held for a whole sync, so two syncs of one repo run one after the other.
    package func withLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        let lock = try acquireLock(exclusive: exclusive)
        defer { flock(lock.fd, LOCK_UN) }
        return try body()
    }

    /// The same for async work: the lock is waited for on a thread of its own, since
    /// another process may hold it for minutes.
    package func withLock<T>(exclusive: Bool, _ body: () async throws -> T) async throws -> T {
        let lock = try await onWorkerThread { [self] in try acquireLock(exclusive: exclusive) }
        defer { flock(lock.fd, LOCK_UN) }
        return try await body()
    }

    private func acquireLock(exclusive: Bool) throws -> PosixFile {
        let lock = try PosixFile.open(root + "/" + Self.lockFileName, flags: O_RDWR | O_CREAT)
        while flock(lock.fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw ZincError.io(path: lock.path, operation: "lock", errno: errno) }
        }
        return lock
    }
}
