import Foundation
import Testing
import Zinc
import ZincTestSupport

@Suite struct SourceTreeTests {
    func scan(_ root: String) throws -> (files: [String], warnings: [String]) {
        var warnings = [String]()
        let files = try SourceTree.scan(root, ignoring: IgnorePatterns.forSource(root, defaults: true, excludes: [])) {
            warnings.append($0)
        }
        return (files.map(\.relativePath), warnings)
    }

    @Test func listsRegularFilesSortedIgnoringDSStoreAndEmptyFolders() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/b.txt", "b")
        try dir.write("src/a/z.json", "{}")
        try dir.write("src/a/empty.bin", [])
        try dir.write("src/.DS_Store", "finder")
        try dir.write("src/a/.hidden", "kept")
        try FileManager.default.createDirectory(atPath: dir.at("src/nothing/here"), withIntermediateDirectories: true)
        let result = try scan(dir.at("src"))
        #expect(result.files == ["a/.hidden", "a/empty.bin", "a/z.json", "b.txt"])
        #expect(result.warnings.isEmpty)
    }

    #if os(Linux)
    /// Under `relatime`, listing a folder whose access time is older than its last
    /// change updates it, leaving an inode for the next flush of that file system to write.
    @Test func listingFoldersLeavesTheirAccessTimesAlone() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/a/b/c.txt", "c")
        let folders = ["src", "src/a", "src/a/b"].map { dir.at($0) }
        let longAgo = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_100, tv_nsec: 0)]
        for folder in folders { #expect(utimensat(AT_FDCWD, folder, longAgo, 0) == 0) }
        #expect(try scan(dir.at("src")).files == ["a/b/c.txt"])
        for folder in folders {
            var status = stat()
            #expect(stat(folder, &status) == 0)
            #expect(status.st_atim.tv_sec == 1_000_000_000, "\(folder)")
        }
    }
    #endif

    @Test func listsInByteOrderOfTheWholePathWhereFolderNamesPrefixOtherNames() throws {
        let dir = try TemporaryDirectory()
        for path in ["ab", "a/b", "a-b", "a0/x", "a.txt", "é.txt", "b/f", "b-c", "b.d/f", "b.d/e/g"] {
            try dir.write("src/" + path, path)
        }
        let files = try scan(dir.at("src")).files
        #expect(files == ["a-b", "a.txt", "a/b", "a0/x", "ab", "b-c", "b.d/e/g", "b.d/f", "b/f", "é.txt"])
        #expect(files == files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func followsSymlinksToFilesInsideTheTree() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/real/data.txt", "content")
        try FileManager.default.createSymbolicLink(atPath: dir.at("src/alias.txt"), withDestinationPath: "real/data.txt")
        let files = try SourceTree.scan(dir.at("src")) { _ in }
        let alias = try #require(files.first { $0.relativePath == "alias.txt" })
        #expect(alias.size == 7)
        #expect(alias.absolutePath.hasSuffix("/src/real/data.txt"))
    }

    @Test func doesNotDescendIntoSymlinkedFolders() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/real/data.txt", "content")
        try FileManager.default.createSymbolicLink(atPath: dir.at("src/linked"), withDestinationPath: "real")
        let result = try scan(dir.at("src"))
        #expect(result.files == ["real/data.txt"])
        #expect(result.warnings == ["not descending into '\(dir.at("src"))/linked': symlinked folders are not followed"])
    }

    @Test func refusesEscapingDanglingAndLoopingSymlinks() throws {
        let dir = try TemporaryDirectory()
        try dir.write("outside.txt", "secret")
        try dir.write("src/ok.txt", "ok")
        let root = dir.at("src")
        try FileManager.default.createSymbolicLink(atPath: root + "/escape.txt", withDestinationPath: "../outside.txt")
        #expect(
            throws: ZincError.sourceProblem(
                path: root + "/escape.txt",
                reason: "symlink points outside the source folder (to '\(dir.at("outside.txt"))')")
        ) {
            try scan(root)
        }
        try FileManager.default.removeItem(atPath: root + "/escape.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling.txt", withDestinationPath: "missing.txt")
        #expect(throws: ZincError.sourceProblem(path: root + "/dangling.txt", reason: "dangling symlink (its target does not exist)")) {
            try scan(root)
        }
        try FileManager.default.removeItem(atPath: root + "/dangling.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop1", withDestinationPath: "loop2")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop2", withDestinationPath: "loop1")
        #expect(throws: ZincError.sourceProblem(path: root + "/loop1", reason: "symlink loop")) { try scan(root) }
    }

    /// A file larger than a manifest may state (a sparse one here: no byte is written) is
    /// refused by name at the scan, before anything is hashed.
    @Test func refusesAFileLargerThanTheLargestObject() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/ok.txt", "ok")
        let root = dir.at("src")
        let huge = root + "/huge.bin"
        let descriptor = open(huge, O_CREAT | O_WRONLY, 0o644)
        try #require(descriptor >= 0)
        let sized = ftruncate(descriptor, off_t(Manifest.maximumObjectSize + 1))
        close(descriptor)
        try #require(sized == 0, "the file system refuses a sparse file of 1 TiB")
        let reason = "it is \(Manifest.maximumObjectSize + 1) bytes, above the largest object a catalog holds (1099511627776 bytes)"
        #expect(throws: ZincError.sourceProblem(path: huge, reason: reason)) { try scan(root) }
        // At the limit it is taken.
        #expect(truncate(huge, off_t(Manifest.maximumObjectSize)) == 0)
        #expect(try scan(root).files == ["huge.bin", "ok.txt"])
    }

    @Test func skipsFIFOsWithoutOpeningThem() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/a.txt", "a")
        #expect(mkfifo(dir.at("src/pipe"), 0o644) == 0)
        // Opening a FIFO for reading would block this test forever.
        let result = try scan(dir.at("src"))
        #expect(result.files == ["a.txt"])
        #expect(result.warnings == ["skipping '\(dir.at("src"))/pipe': not a regular file (FIFO, socket or device)"])
    }

    @Test func refusesNamesThatAreNotUTF8OrHoldControlCharacters() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/ok.txt", "ok")
        let bad = dir.at("src/") + "caf\u{1}.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: bad))
        #expect(throws: ZincError.sourceProblem(path: bad, reason: "the name contains a control character")) {
            try scan(dir.at("src"))
        }
        try FileManager.default.removeItem(atPath: bad)
        var latin1 = Array(dir.at("src/caf").utf8) + [0xE9] + Array(".txt".utf8) + [0]
        let fd = creat(&latin1, 0o644)
        #expect(fd >= 0)
        close(fd)
        #expect(throws: ZincError.sourceProblem(path: dir.at("src/caf") + "\u{FFFD}.txt", reason: "the name is not valid UTF-8")) {
            try scan(dir.at("src"))
        }
    }

    @Test func refusesTwoNamesOfOneFolderThatDifferOnlyInUnicodeNormalization() throws {
        let dir = try TemporaryDirectory()
        // Same name in other folders, or the other form alone, is fine.
        try dir.write("src/a/caf\u{E9}.txt", "composed")
        try dir.write("src/b/cafe\u{301}.txt", "decomposed")
        #expect(
            try scan(dir.at("src")).files.map { Array($0.utf8) }
                == [Array("a/caf\u{E9}.txt".utf8), Array("b/cafe\u{301}.txt".utf8)])
        try dir.write("src/b/caf\u{E9}.txt", "composed")
        let twins =
            "another name in its folder, 'cafe\u{301}.txt', differs from it only in Unicode normalization "
            + "(cafe\\u{301}.txt against caf\\u{E9}.txt); macOS, iOS and Zinc's readers take the two for one name, so rename one"
        #expect(throws: ZincError.sourceProblem(path: dir.at("src/b/caf\u{E9}.txt"), reason: twins)) { try scan(dir.at("src")) }
        // A folder and a file are twins too: a client could not create both.
        try FileManager.default.removeItem(atPath: dir.at("src/b/caf\u{E9}.txt"))
        try dir.write("src/b/caf\u{E9}.txt/inner", "in a folder")
        #expect(throws: ZincError.sourceProblem(path: dir.at("src/b/caf\u{E9}.txt"), reason: twins)) { try scan(dir.at("src")) }
    }

    /// The root's entries are shared out between threads, a folder or a run of files at a
    /// time: the files, the warnings and the error must be those of a walk on one thread,
    /// whichever piece is done first.
    @Test func oneThreadAndManyListTheSameFilesWarningsAndError() throws {
        let dir = try TemporaryDirectory()
        for i in 0..<700 { try dir.write("src/f\(i).txt", "\(i)") }
        for folder in 0..<40 {
            for i in 0..<(folder % 7) { try dir.write("src/d\(folder)/sub\(i % 2)/g\(i)", "\(folder)-\(i)") }
        }
        for pipe in ["src/f3.pipe", "src/d5/sub1/pipe", "src/z.pipe"] { #expect(mkfifo(dir.at(pipe), 0o644) == 0) }
        func scanned(_ workers: Int) throws -> (files: [SourceFile], warnings: [String]) {
            var warnings = [String]()
            let files = try SourceTree.scan(dir.at("src"), workers: workers) { warnings.append($0) }
            return (files, warnings)
        }
        let one = try scanned(1)
        #expect(one.files.count == 700 + (0..<40).reduce(0) { $0 + $1 % 7 })
        #expect(one.warnings.count == 3)
        for workers in [2, 3, 8] {
            let many = try scanned(workers)
            #expect(many.files == one.files, "\(workers) threads")
            #expect(many.warnings == one.warnings, "\(workers) threads")
        }
        // Two bad names in different pieces: the first in path order is the one refused,
        // after the warnings of what comes before it.
        try dir.write("src/d9/z\u{1}late", "x")
        #expect(mkfifo(dir.at("src/d9/0.pipe"), 0o644) == 0)
        try dir.write("src/f4\u{2}.txt", "x")
        for workers in [1, 2, 8] {
            var warnings = [String]()
            #expect(throws: ZincError.sourceProblem(path: dir.at("src/d9/z\u{1}late"), reason: "the name contains a control character")) {
                try SourceTree.scan(dir.at("src"), workers: workers) { warnings.append($0) }
            }
            #expect(
                warnings == [
                    "skipping '\(dir.at("src"))/d5/sub1/pipe': not a regular file (FIFO, socket or device)",
                    "skipping '\(dir.at("src"))/d9/0.pipe': not a regular file (FIFO, socket or device)",
                ])
        }
    }

    @Test func refusesEmptyAndMissingSources() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.at("empty/sub"), withIntermediateDirectories: true)
        #expect(throws: ZincError.emptySource(dir.at("empty"))) { try scan(dir.at("empty")) }
        #expect(throws: ZincError.sourceProblem(path: dir.at("missing"), reason: "no such folder")) { try scan(dir.at("missing")) }
        try dir.write("file.txt", "x")
        #expect(throws: ZincError.sourceProblem(path: dir.at("file.txt"), reason: "not a folder")) { try scan(dir.at("file.txt")) }
    }
}
