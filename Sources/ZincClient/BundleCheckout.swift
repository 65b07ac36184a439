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

/// Builds `bundles/<catalog id>.<bundle>-<v>[~flavor]/` from objects/: every file a
/// hard link to its object (a copy where the file system refuses links), assembled in
/// a private staging folder and renamed into place complete. The previous version's
/// folder is not touched, so an app keeps using it until the sync switches over.
struct BundleCheckout {
    let repo: Repo

    /// Returns the bundle folder.
    @discardableResult
    func checkout(_ manifest: Manifest, catalog: String, flavor: String?) throws -> String {
        let folder = repo.bundleFolder(catalog: catalog, bundle: manifest.bundle, version: manifest.version, flavor: flavor)
        let paths = manifest.paths(flavor: flavor)
        // Parsing validated them already; a manifest decides where files go, so check again where it matters.
        for path in paths { try Names.validateRelativePath(path) }

        let stagingFolder = try StagingFolder(in: repo.bundlesFolder, for: String(folder.split(separator: "/").last!))
        defer { stagingFolder.remove() }
        let staging = stagingFolder.path
        guard chmod(staging, 0o755) == 0 else { throw ZincError.io(path: staging, operation: "chmod", errno: errno) }

        for path in paths {
            do {
                try StagingFolder.createFolders(path.split(separator: "/").dropLast(), in: staging)
            } catch ZincError.io(_, _, ENOTDIR) {
                throw ZincError.invalidPath(path, reason: "another file of the bundle already takes its place")
            }
            try place(repo.objectFile(manifest.files[path]!.sha), at: staging + "/" + path, path: path)
        }
        // A folder of this version from a run killed before its switch is complete but
        // unused: nothing refers to it, so it is rebuilt rather than trusted.
        if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
        guard rename(staging, folder) == 0 else { throw ZincError.io(path: folder, operation: "rename into place", errno: errno) }
        return folder
    }

    private func place(_ object: String, at target: String, path: String) throws {
        if link(object, target) == 0 { return }
        let code = errno
        switch code {
        case EEXIST, ENOTDIR:
            throw ZincError.invalidPath(
                path,
                reason:
                    "another file of the bundle already takes its place (names differing only in case collide on a case-insensitive file system)"
            )
        case EXDEV, EPERM, EMLINK, EOPNOTSUPP:
            let source = try PosixFile.openForReading(object)
            let copy = try PosixFile.open(target, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o444)
            try copy.appendContents(of: source)
        default:
            throw ZincError.io(path: target, operation: "link \(object) to", errno: code)
        }
    }
}
