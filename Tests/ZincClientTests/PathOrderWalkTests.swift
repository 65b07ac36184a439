import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// A folder walked in the byte order of its paths, the order of a version's table: a
/// folder's entries where its name with a '/' sorts, so that "a.txt" ('.') comes before
/// the entries of "a/" and "a0" after them.
@Suite struct PathOrderWalkTests {
    static func walked(_ folder: String) -> [(path: String, kind: String)] {
        var walk = PathOrderWalk(folder)
        var given = [(path: String, kind: String)]()
        while let kind = walk.next() {
            let name: String
            switch kind {
            case .file(let info): name = "file \(info.st_size)"
            case .folder: name = "folder"
            case .other: name = "other"
            }
            given.append((String(decoding: walk.path, as: UTF8.self), name))
        }
        return given
    }

    @Test func entriesComeInTheOrderOfTheirPathsBytes() throws {
        let dir = try TemporaryDirectory()
        for path in ["a/b.txt", "a/b/c", "a.txt", "a b", "a0", "a-b/x", "Z", "é", "z/y/x/w"] {
            try dir.write("tree/" + path, "12345")
        }
        #expect(mkdir(dir.at("tree/empty"), 0o755) == 0)
        #expect(symlink("a.txt", dir.at("tree/a.link")) == 0)
        let given = Self.walked(dir.at("tree"))
        #expect(
            given.map(\.path) == [
                "Z", "a b", "a-b/", "a-b/x", "a.link", "a.txt", "a/", "a/b.txt", "a/b/", "a/b/c", "a0", "empty/", "z/", "z/y/", "z/y/x/",
                "z/y/x/w", "é",
            ])
        #expect(given.first { $0.path == "a.link" }?.kind == "other" && given.first { $0.path == "a/b/c" }?.kind == "file 5")
        #expect(given.filter { $0.kind == "folder" }.count == 7)
        // The order of a table: the paths' bytes, compared as a table compares them.
        let bytes = given.map { Array($0.path.utf8) }
        #expect(
            bytes.indices.dropFirst().allSatisfy { i in
                bytes[i - 1].withUnsafeBufferPointer { a in bytes[i].withUnsafeBufferPointer { CompactManifest.compare(a, $0) < 0 } }
            })
    }

    /// A walk holds a descriptor for each folder on the way down: closed as each ends, and
    /// all at once when it is stopped before its end.
    @Test func aWalkStoppedBeforeItsEndClosesItsFolders() throws {
        let dir = try TemporaryDirectory()
        try dir.write("tree/a/b/c/d", "x")
        // The descriptors open on the tree's folders (tests running beside this one open others).
        let tree = dir.at("tree")
        let open = {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter { fd in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)
                return target == tree || target?.hasPrefix(tree + "/") == true
            }.count
        }
        var walk = PathOrderWalk(tree)
        while let kind = walk.next(), case .folder = kind {}
        #expect(String(decoding: walk.path, as: UTF8.self) == "a/b/c/d" && open() == 4)
        walk.stop()
        #expect(open() == 0)
    }

    @Test func aFolderThatCannotBeListedGivesNothing() throws {
        let dir = try TemporaryDirectory()
        #expect(Self.walked(dir.at("absent")).isEmpty)
        try dir.write("file", "x")
        #expect(Self.walked(dir.at("file")).isEmpty)
    }
}
