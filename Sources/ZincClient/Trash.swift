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

/// Bundle folders the repo no longer uses, moved aside to `trash/` with one rename each
/// and removed later, while the next sync waits on the network. Removing a version's
/// folder costs a system call per file and folder (tens of milliseconds for a few hundred
/// files on ext4), which a sync that just switched versions would otherwise add to its
/// time. Between syncs the trash holds links to objects (and the bytes of objects no
/// current version uses); every sync empties it before it downloads anything, so its
/// space is free again before any is needed.
struct Trash {
    let repo: Repo

    var folder: String { repo.root + "/trash" }

    /// Moves `path` (a folder of the repo) into the trash, or removes it at once where
    /// it cannot be moved.
    func discard(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = path.split(separator: "/").last.map(String.init) ?? "folder"
        let aside = folder + "/" + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard rename(path, aside) != 0, errno != ENOENT else { return }
        try GarbageCollector.remove(path)
    }

    /// Removes what the trash holds, on a thread of its own; the caller awaits it before
    /// it downloads, and before it gives up the repo's lock.
    func startEmptying() -> Task<Void, Never> {
        let folder = folder
        return Task(executorPreference: SyncEngine.executor) { _ = try? await onWorkerThread { Self.empty(folder) } }
    }

    /// Removes what the trash holds, now (for commands that wait on no network).
    func empty() {
        Self.empty(folder)
    }

    private static func empty(_ folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        // What cannot be removed now stays for the next sync to try again.
        for name in names { try? GarbageCollector.remove(folder + "/" + name) }
    }
}
