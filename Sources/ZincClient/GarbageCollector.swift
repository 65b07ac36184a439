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

/// Removes what no tracked bundle's current version uses any more: bundle folders
/// (older versions, staging folders of killed runs: moved to the `Trash`), manifests,
/// and, when no download is worth resuming, unreferenced objects (with their chunk
/// records) and tmp/. Runs under the repo lock, after the switch, so nothing an app may
/// be told to use is ever removed.
///
/// A collection walks every object and reads every checked-out manifest, so a sync with
/// nothing new skips it: `collected` (an empty file at the repo's root) says the last
/// collection left nothing behind, and whatever may leave something for it (a sync that
/// fetches or builds anything, a seed, an untrack) removes that file first.
struct GarbageCollector {
    let repo: Repo

    static let markerName = "collected"

    /// Whether something may be left for a collection to remove.
    static func isNeeded(in repo: Repo) -> Bool {
        access(repo.root + "/" + markerName, F_OK) != 0
    }

    /// Says that what follows may leave something for a collection to remove.
    static func willBeNeeded(in repo: Repo) throws {
        let marker = repo.root + "/" + markerName
        if unlink(marker) != 0, errno != ENOENT { throw ZincError.io(path: marker, operation: "remove", errno: errno) }
    }
    /// Where bundle folders go, to be removed off the sync's critical path.
    var trash: Trash { Trash(repo: repo) }

    struct Result: Equatable, Sendable {
        var folders = 0
        /// The objects removed, which the check forgets; none unless they are asked for.
        var removedObjects = [String]()
        var objects = 0
    }

    /// - Parameters:
    ///   - downloads: also remove unreferenced objects and tmp/; false after a failed
    ///     bundle sync, whose verified objects let the next run resume.
    ///   - inUse: the objects of versions the sync read already (of the tracked flavor),
    ///     by manifest file, so as not to read those manifests again.
    ///   - mayBeUnused: when the caller knows them, every object that may have lost its
    ///     last user since the store was last collected (those of the versions that left):
    ///     only they are looked at, not the whole store, which an update of one file out of
    ///     100,000 would otherwise list. Nil lists the store.
    ///   - naming: whether the result names the objects removed (`untrack`, which removes
    ///     a whole bundle's, asks only how many: their names took 9 MB at 100,000).
    func collect(
        _ state: RepoState, downloads: Bool, inUse: [String: VersionObjects] = [:], mayBeUnused: [SHA1.Digest]? = nil,
        naming: Bool = true
    ) throws -> Result {
        // Until it ends with the objects removed, it leaves them for the next collection.
        try Self.willBeNeeded(in: repo)
        var result = Result()
        // The version each bundle has checked out, and its spare (the version before,
        // which the next update turns into the new one).
        let current = state.bundles.flatMap { tracked in
            [(tracked.version, false), (tracked.spareVersion, true)].compactMap { version, spare in
                version.map { (tracked, $0, spare) }
            }
        }
        let keptFolders = Set(
            current.map { Repo.descriptor(catalog: $0.0.catalog, bundle: $0.0.bundle, version: $0.1, flavor: $0.0.flavor) })
        for name in try entries(repo.bundlesFolder) where !keptFolders.contains(name) {
            try trash.discard(repo.bundlesFolder + "/" + name)
            result.folders += 1
        }

        CurrentLinks.removeStale(state, in: repo)

        var keptManifests = Set<String>()
        for (tracked, version, _) in current {
            keptManifests.insert(repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: version))
            keptManifests.insert(repo.digestListFile(tracked.catalog, bundle: tracked.bundle, version: version))
            keptManifests.insert(repo.manifestTableFile(tracked.catalog, bundle: tracked.bundle, version: version))
        }
        // The objects of each version kept, handed to `body` one at a time while it says to go on.
        func forEachKept(_ body: (SHA1.Digest) -> Bool) throws {
            for (tracked, version, spare) in current {
                if let objects = inUse[repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: version)] {
                    for digest in objects.digests { guard body(digest) else { return } }
                    continue
                }
                // From the manifest's table read as a stream (the version a sync just left, a
                // spare), else from the manifest read as a stream into the packed one, which a
                // table found broken on the way costs too. A spare whose manifest is gone is of
                // no use: the next update builds afresh.
                let trust = ManifestTable.Trust(catalog: tracked.catalog, in: state)
                if let table = try? ManifestTableRows(tracked, version: version, in: repo, trust: trust),
                    var rows = try? table.cursor(flavor: tracked.flavor)
                {
                    do {
                        while try rows.next() { guard body(rows.object.digest) else { return } }
                        continue
                    } catch {}
                }
                let read = { try CheckedOutFiles.read(tracked, version: version, in: repo, trust: trust) }
                guard let files = spare ? try? read() : try read() else { continue }
                for digest in files.digests { guard body(digest) else { return } }
            }
        }
        // Of the objects that may be unused, those no kept version holds (each kept version
        // read until none is left); else every object in use, by digest, sorted: 20 bytes
        // an object, no string.
        var unused: Set<SHA1.Digest>?
        var referenced = [SHA1.Digest]()
        // Every kept version's objects read already (a first sync's): looked up where they
        // are, with no copy of them (19 MB at 1,000,000 objects).
        let listed = current.compactMap { inUse[repo.manifestFile($0.0.catalog, bundle: $0.0.bundle, version: $0.1)] }
        let allListed = listed.count == current.count
        if downloads, let mayBeUnused {
            var left = Set(mayBeUnused)
            try forEachKept { digest in
                left.remove(digest)
                return !left.isEmpty
            }
            unused = left
        } else if downloads, !allListed {
            // Room for the versions read already (a first sync's one): no copy as it grows.
            referenced.reserveCapacity(inUse.values.reduce(0) { $0 + $1.count })
            try forEachKept { digest in
                referenced.append(digest)
                return true
            }
            // One version's objects come sorted already (a first sync's): no sort, whose
            // scratch buffer was as large again.
            if !zip(referenced, referenced.dropFirst()).allSatisfy({ $0 <= $1 }) { referenced.sort() }
        }
        for catalog in try entries(repo.manifestsFolder) {
            let folder = repo.manifestsFolder + "/" + catalog
            for name in try entries(folder) where !keptManifests.contains(folder + "/" + name) {
                try Self.remove(folder + "/" + name)
            }
            if try entries(folder).isEmpty { try Self.remove(folder) }
        }
        guard downloads else { return result }
        let removed = { (name: String) in
            result.objects += 1
            if naming { result.removedObjects.append(name) }
        }
        if let unused {
            for digest in unused.sorted() where try Self.removeIfPresent(repo.objectsFolder + "/" + digest.hex) {
                removed(digest.hex)
                // A chunk record goes with its object.
                _ = try Self.removeIfPresent(repo.chunksFolder + "/" + digest.hex)
            }
        } else {
            let isReferenced = { (name: String) in
                SHA1.Digest(hex: name).map { digest in
                    allListed ? listed.contains { $0.contains(digest) } : Self.contains(referenced, digest)
                } ?? false
            }
            // Each removed as the listing reaches it: no list of the names to remove.
            try FolderListing.forEachName(in: repo.objectsFolder) { name in
                guard !isReferenced(name) else { return }
                try Self.remove(repo.objectsFolder + "/" + name)
                removed(name)
            }
            // A chunk record goes with its object (repos made before chunks have no folder).
            if FileManager.default.fileExists(atPath: repo.chunksFolder) {
                try FolderListing.forEachName(in: repo.chunksFolder) { name in
                    if Names.isSHA1(name) && !isReferenced(name) { try Self.remove(repo.chunksFolder + "/" + name) }
                }
            }
        }
        for name in try entries(repo.temporaryFolder) { try Self.remove(repo.temporaryFolder + "/" + name) }
        // Not durable: a marker lost to a crash costs the next sync a collection, nothing more.
        _ = try? PosixFile.open(repo.root + "/" + Self.markerName, flags: O_WRONLY | O_CREAT | O_NOFOLLOW)
        return result
    }

    /// Removes the file at `path`; false when there was none.
    private static func removeIfPresent(_ path: String) throws -> Bool {
        guard unlink(path) != 0 else { return true }
        guard errno == ENOENT else { throw ZincError.io(path: path, operation: "remove", errno: errno) }
        return false
    }

    /// Whether `sorted` holds `digest`.
    private static func contains(_ sorted: [SHA1.Digest], _ digest: SHA1.Digest) -> Bool {
        let i = sorted.partitionPoint { $0 < digest }
        return i < sorted.count && sorted[i] == digest
    }

    /// The names in `folder`.
    private func entries(_ folder: String) throws -> [String] {
        var names = [String]()
        try FolderListing.forEachName(in: folder) { names.append($0) }
        return names
    }

    /// Removes `path`, a file or a folder with all it holds (a symbolic link itself, never
    /// what it leads to), one entry at a time: what is held is an open folder for each
    /// level on the way down, no list of names (`FileManager.removeItem` held about 2.8 MB
    /// walking a 100,000-file bundle folder, beside the sync that emptied the trash).
    static func remove(_ path: String) throws {
        if unlink(path) == 0 || errno == ENOENT { return }
        // A folder: EISDIR on Linux, EPERM on Apple systems.
        guard errno == EISDIR || errno == EPERM else { throw ZincError.io(path: path, operation: "remove", errno: errno) }
        try removeContents(of: open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), at: path)
        guard rmdir(path) == 0 || errno == ENOENT else { throw ZincError.io(path: path, operation: "remove", errno: errno) }
    }

    /// Removes what the folder open as `descriptor` (closed here) holds.
    private static func removeContents(of descriptor: Int32, at path: String) throws {
        guard descriptor >= 0, let dir = fdopendir(descriptor) else {
            let failure = errno
            if descriptor >= 0 { close(descriptor) }
            throw ZincError.io(path: path, operation: "remove", errno: failure)
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            try withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.bindMemory(to: CChar.self).baseAddress!
                let bytes = raw.prefix { $0 != 0 }
                guard bytes.elementsEqual(".".utf8) == false, bytes.elementsEqual("..".utf8) == false else { return }
                if unlinkat(descriptor, name, 0) == 0 || errno == ENOENT { return }
                let inner = path + "/" + String(decoding: bytes, as: UTF8.self)
                guard errno == EISDIR || errno == EPERM else { throw ZincError.io(path: inner, operation: "remove", errno: errno) }
                try removeContents(of: openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), at: inner)
                guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOENT else {
                    throw ZincError.io(path: inner, operation: "remove", errno: errno)
                }
            }
        }
    }
}
