import Foundation
import Testing
import ZincTestSupport

@testable import ZincClient

/// A folder the trash or the collection removes goes whole, read-only files and nested
/// folders included, and a symbolic link in it goes as a link: what it leads to, outside
/// the folder, stays.
@Suite struct FolderRemovalTests {
    @Test func aFolderGoesWholeAndWhatItsLinksLeadToStays() throws {
        let dir = try TemporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.at("outside/kept"), withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: dir.url("outside/kept/file"))
        try fm.createDirectory(atPath: dir.at("folder/a/b/c"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.at("folder/empty"), withIntermediateDirectories: true)
        for (i, path) in ["folder/top", "folder/a/one", "folder/a/b/two", "folder/a/b/c/three"].enumerated() {
            try Data(repeating: UInt8(i), count: i * 100).write(to: dir.url(path))
            chmod(dir.at(path), 0o444)
        }
        try fm.createSymbolicLink(atPath: dir.at("folder/a/to-outside"), withDestinationPath: dir.at("outside/kept"))
        try fm.createSymbolicLink(atPath: dir.at("folder/dangling"), withDestinationPath: dir.at("nowhere"))

        try GarbageCollector.remove(dir.at("folder"))

        #expect(!fm.fileExists(atPath: dir.at("folder")))
        #expect(try String(contentsOfFile: dir.at("outside/kept/file"), encoding: .utf8) == "kept")
    }

    @Test func aFileOrNothingAtAllIsRemovedToo() throws {
        let dir = try TemporaryDirectory()
        try Data("x".utf8).write(to: dir.url("file"))
        try GarbageCollector.remove(dir.at("file"))
        #expect(!FileManager.default.fileExists(atPath: dir.at("file")))
        try GarbageCollector.remove(dir.at("never-there"))
    }

    @Test func aLinkToAFolderIsRemovedAsALink() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.at("target"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: dir.url("target/file"))
        try FileManager.default.createSymbolicLink(atPath: dir.at("link"), withDestinationPath: dir.at("target"))
        try GarbageCollector.remove(dir.at("link"))
        #expect(!FileManager.default.fileExists(atPath: dir.at("link")))
        #expect(FileManager.default.fileExists(atPath: dir.at("target/file")))
    }
}
