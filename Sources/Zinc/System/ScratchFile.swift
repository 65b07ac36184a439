import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written before it takes its final name, so that nothing finds it there
/// incomplete. On Linux it is an unnamed file (`O_TMPFILE`) in the final folder, linked
/// into place once written: no temporary name is created and renamed away, which cost an
/// import a tenth more per object and a client extracting an archive more still, and a
/// writer killed meanwhile leaves nothing behind. Elsewhere, or where the file system
/// refuses unnamed files, it has a temporary name, `.<name>.tmp-<pid>-<serial>`, and is
/// renamed into place. `FileStorageWriter` writes a catalog's files through it, and the
/// client its objects (`VerifiedObjectWriter`), whose temporary names go to the repo's
/// `tmp/`.
package final class ScratchFile {
    package let file: PosixFile
    /// The final name, absolute; also how the file is named in messages.
    private let final: String
    /// The final name for the `*at` calls (below an open folder where the writer has one).
    private let place: FilePlace
    /// Where temporary names are made.
    private let temporaryFolder: String
    /// The name the file is written under; nil while it is unnamed, and once it has its final name.
    private var temporaryPath: String?

    /// - Parameters:
    ///   - final: the absolute path the file will have.
    ///   - place: the same path for the `*at` calls, when the writer has its folder open.
    ///   - temporaryFolder: where a temporary name goes, on the file system of `final`
    ///     (by default the folder of `final`).
    ///   - mode: the file's permissions from its creation. The descriptor that creates a
    ///     file writes it whatever they say, so a read-only file (a client's object) costs
    ///     no `fchmod` before it is installed.
    package init(becoming final: String, at place: FilePlace? = nil, temporaryFolder: String? = nil, mode: mode_t = 0o644) throws {
        self.final = final
        let place = place ?? FilePlace(folder: AT_FDCWD, path: final)
        self.place = place
        let temporaryFolder = temporaryFolder ?? String(final[..<final.utf8.lastIndex(of: UInt8(ascii: "/"))!])
        self.temporaryFolder = temporaryFolder
        #if os(Linux)
        if let unnamed = try Self.openUnnamed(in: place.parent ?? .init(folder: place.folder, path: "."), shownAs: final, mode: mode) {
            if Self.linkingWorks.load(ordering: .relaxed) {
                file = unnamed
                return
            }
            // The process's first unnamed file proves that it can be linked, under the
            // temporary name a replacing install gives it anyway. Where that is refused
            // (a sandbox or file system refusing links through /proc), every later file
            // has a temporary name instead of failing at its install.
            let temporary = Self.temporaryName(of: final, in: temporaryFolder)
            if Self.linkUnnamed(unnamed, as: .init(folder: AT_FDCWD, path: temporary)) == 0 {
                Self.linkingWorks.store(true, ordering: .relaxed)
                file = unnamed
                temporaryPath = temporary
                return
            }
            Self.unnamedFilesWork.store(false, ordering: .relaxed)
        }
        #endif
        let temporary = Self.temporaryName(of: final, in: temporaryFolder)
        file = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        temporaryPath = temporary
    }

    deinit { discard() }

    /// Gives the file, all written, its final name; false when `replacing` is false and
    /// the name is taken, the file there staying byte for byte. Its bytes are handed to
    /// the disk first where a batch's flush cannot reach them (`DurableBatch`).
    package func install(replacing: Bool) throws -> Bool {
        try DurableBatch.handOver(file)
        #if os(Linux)
        if temporaryPath == nil {
            // linkat never replaces a file.
            if Self.linkUnnamed(file, as: place) == 0 { return true }
            guard errno == EEXIST else { throw ZincError.io(path: final, operation: "create", errno: errno) }
            guard replacing else { return false }
            // Replacing needs a name to rename from.
            let temporary = Self.temporaryName(of: final, in: temporaryFolder)
            guard Self.linkUnnamed(file, as: .init(folder: AT_FDCWD, path: temporary)) == 0 else {
                throw ZincError.io(path: temporary, operation: "create", errno: errno)
            }
            temporaryPath = temporary
        }
        #endif
        let temporary = temporaryPath!
        if replacing {
            guard rename(temporary, final) == 0 else { throw ZincError.io(path: final, operation: "rename into place", errno: errno) }
        } else if Self.renameNoReplace(temporary, final) != 0 {
            // Neither call replaces an existing file. renameat2 does it in one step; where
            // it is missing, link, the temporary name then removed by `discard`.
            guard errno != EEXIST else { return false }
            guard link(temporary, final) == 0 else {
                if errno == EEXIST { return false }
                throw ZincError.io(path: final, operation: "create", errno: errno)
            }
            return true
        }
        temporaryPath = nil
        return true
    }

    /// Removes the temporary name, if the file has one; an unnamed file vanishes when closed.
    package func discard() {
        guard let temporaryPath else { return }
        unlink(temporaryPath)
        self.temporaryPath = nil
    }

    /// `<folder>/.<name of final>.tmp-<pid>-<serial>` (see `FileStorage.abandonedWrites`).
    private static func temporaryName(of final: String, in folder: String) -> String {
        // Searched as UTF-8, like `FilePlace.parent`: this runs for every file where files
        // are not unnamed (Darwin), and Characters are slow to walk.
        let slash = final.utf8.lastIndex(of: UInt8(ascii: "/"))!
        let name = final[final.utf8.index(after: slash)...]
        return "\(folder)/.\(name)\(FileStorage.temporaryMarker)\(processID)-\(serial.next())"
    }

    /// Temporary names only need to be unique among live writers: the pid separates
    /// processes, a counter the writers of one process (no random-number syscall each).
    private static let processID = getpid()
    private static let serial = SerialNumbers()

    private static func renameNoReplace(_ source: String, _ destination: String) -> Int32 {
        #if os(Linux)
        return KernelCalls.renameNoReplace(source, destination)
        #else
        errno = ENOSYS
        return -1
        #endif
    }

    #if os(Linux)
    /// An unnamed file in `folder`, or nil where unnamed files cannot be made or linked
    /// (the first refusal stops the attempts). Named `shown` in messages.
    private static func openUnnamed(in folder: FilePlace, shownAs shown: String, mode: mode_t) throws -> PosixFile? {
        guard unnamedFilesWork.load(ordering: .relaxed) else { return nil }
        let fd = openat(folder.folder, folder.path, O_WRONLY | KernelCalls.anonymousFile | O_CLOEXEC, mode)
        if fd >= 0 { return PosixFile(fd: fd, path: shown) }
        // Kernels before 3.11 see a folder opened for writing (EISDIR); some file systems refuse.
        guard errno == EISDIR || errno == EOPNOTSUPP || errno == EINVAL else {
            throw ZincError.io(path: String(shown[..<shown.lastIndex(of: "/")!]), operation: "create a file in", errno: errno)
        }
        unnamedFilesWork.store(false, ordering: .relaxed)
        return nil
    }

    /// Older kernels link unnamed files only by their name under /proc. The tests of the
    /// named fallback refuse them as a file system without them would (`FaultInjection`).
    private static let unnamedFilesWork = Atomic<Bool>(access("/proc/self/fd", F_OK) == 0 && !FaultInjection.refusesUnnamedFiles)
    /// Whether an unnamed file of this process has been linked into a folder.
    private static let linkingWorks = Atomic<Bool>(false)

    /// Gives the unnamed `file` the name `destination`; EEXIST when taken. By its
    /// descriptor (AT_EMPTY_PATH), which kernels since 6.10 allow the process that opened
    /// it, and which spares a walk through /proc for each file; older kernels want a
    /// privilege for that and answer ENOENT, and from then on the file's name under
    /// /proc is used.
    private static func linkUnnamed(_ file: PosixFile, as destination: FilePlace) -> Int32 {
        if linksByDescriptor.load(ordering: .relaxed) {
            if linkat(file.fd, "", destination.folder, destination.path, KernelCalls.emptyPath) == 0 { return 0 }
            guard errno == ENOENT else { return -1 }
            linksByDescriptor.store(false, ordering: .relaxed)
        }
        return linkat(AT_FDCWD, "/proc/self/fd/\(file.fd)", destination.folder, destination.path, AT_SYMLINK_FOLLOW)
    }

    private static let linksByDescriptor = Atomic<Bool>(true)
    #endif
}

/// 1, 2, 3, … from any thread.
private final class SerialNumbers: Sendable {
    private let last = Atomic<UInt32>(0)

    func next() -> UInt32 {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
