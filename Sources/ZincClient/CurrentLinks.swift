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

/// `current/<catalog id>.<bundle>`: a symbolic link to the folder of the version a
/// bundle has checked out, a path an app or a script can keep while versions come and
/// go. It switches in one step (a new link renamed over the old one) right after the
/// bundle's switch in repo.json, so it never names a folder that is not complete.
enum CurrentLinks {
    static let folderName = "current"

    /// Points the link of a tracked bundle at the folder of `version`, when it does not already.
    static func point(_ tracked: RepoState.TrackedBundle, at version: Int, in repo: Repo) throws {
        let link = repo.currentPath(catalog: tracked.catalog, bundle: tracked.bundle)
        let target =
            "../bundles/" + Repo.descriptor(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target { return }
        let folder = repo.root + "/" + folderName
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw ZincError.io(path: folder, operation: "create folder", errno: errno) }
        let temporary = link + ".tmp-\(getpid())"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else { throw ZincError.io(path: temporary, operation: "create link", errno: errno) }
        if rename(temporary, link) == 0 { return FaultInjection.changed(link) }
        var code = errno
        // A folder where the link should be: the repo was copied by a tool that follows
        // links (`cp -r`, a backup), leaving a copy of the version's files. It goes to the
        // trash, and the link takes its place.
        var info = stat()
        if code == EISDIR, lstat(link, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            do {
                try Trash(repo: repo).discard(link)
                if rename(temporary, link) == 0 { return FaultInjection.changed(link) }
                code = errno
            } catch {
                unlink(temporary)
                throw error
            }
        }
        unlink(temporary)
        throw ZincError.io(path: link, operation: "replace link", errno: code)
    }

    /// Removes the links of bundles no longer tracked or checked out.
    static func removeStale(_ state: RepoState, in repo: Repo) {
        let kept = Set(state.bundles.filter { $0.version != nil }.map { "\($0.catalog).\($0.bundle)" })
        let folder = repo.root + "/" + folderName
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !kept.contains(name) {
            unlink(folder + "/" + name)
        }
    }
}

extension Repo {
    /// `current/<catalog id>.<bundle>`, a link to the folder of the bundle's checked-out
    /// version, switched by each sync in one step: the path to give an app that should
    /// always read the latest version it has.
    public func currentFolder(catalog: String, bundle: String) -> URL {
        URL(fileURLWithPath: currentPath(catalog: catalog, bundle: bundle), isDirectory: true)
    }

    /// ``currentFolder(catalog:bundle:)`` as a path.
    package func currentPath(catalog: String, bundle: String) -> String {
        root + "/" + CurrentLinks.folderName + "/" + catalog + "." + bundle
    }
}
