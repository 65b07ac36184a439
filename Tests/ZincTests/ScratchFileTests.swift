import Foundation
import Testing
import Zinc
import ZincTestSupport

/// A file written before it has its name (`ScratchFile`): on Linux unnamed until it is
/// installed, so its folder never lists it half written, and nothing is left of it when
/// it is dropped. `UnnamedFileTests` in the CLI's tests runs the fallback, a temporary name.
@Suite struct ScratchFileTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.at("f"), withIntermediateDirectories: true)
        // A process's first scratch file is named while it proves that linking works.
        let first = try ScratchFile(becoming: dir.at("first"))
        #expect(try first.install(replacing: false))
    }

    func written(_ text: String, as name: String) throws -> ScratchFile {
        let scratch = try ScratchFile(becoming: dir.at("f/" + name))
        try Array(text.utf8).withUnsafeBytes { try scratch.file.write($0) }
        return scratch
    }

    @Test func aFileHasNoNameUntilItIsInstalled() throws {
        let scratch = try written("content", as: "a")
        #if os(Linux)
        #expect(dir.files(under: "f").isEmpty)
        #endif
        #expect(try scratch.install(replacing: false))
        #expect(try dir.read("f/a") == Array("content".utf8))
        #expect(dir.files(under: "f") == ["a"])
    }

    @Test func anInstallThatMayNotReplaceLeavesTheFileThere() throws {
        try dir.write("f/a", "first")
        let scratch = try written("second", as: "a")
        #expect(try !scratch.install(replacing: false))
        scratch.discard()
        #expect(try dir.read("f/a") == Array("first".utf8))
        #expect(dir.files(under: "f") == ["a"])
    }

    @Test func anInstallThatReplacesLeavesOnlyTheNewFile() throws {
        try dir.write("f/a", "first")
        let scratch = try written("second", as: "a")
        #expect(try scratch.install(replacing: true))
        #expect(try dir.read("f/a") == Array("second".utf8))
        #expect(dir.files(under: "f") == ["a"])
    }

    @Test func aFileMadeReadOnlyIsWrittenAndInstalledReadOnly() throws {
        let scratch = try ScratchFile(becoming: dir.at("f/a"), mode: 0o444)
        try Array("content".utf8).withUnsafeBytes { try scratch.file.write($0) }
        #expect(try scratch.install(replacing: true))
        #expect(try dir.read("f/a") == Array("content".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: dir.at("f/a"))[.posixPermissions]
        #expect(mode as? Int == 0o444)
    }

    @Test func aFileDroppedUninstalledLeavesNothing() throws {
        do { _ = try written("abandoned", as: "a") }
        let named = try ScratchFile(becoming: dir.at("f/b"), temporaryFolder: dir.at("f"))
        named.discard()
        #expect(dir.files(under: "f").isEmpty)
    }
}
