import Foundation
import Testing
import Zinc
import ZincTestSupport

/// A catalog read as JavaZinc and the Python tool read it (the index, `distributions[D]`,
/// the manifest, the archive) through a whole staged release: the rollout file is not
/// theirs to read, so they get the control's files exactly until `complete`, then the
/// candidate's.
@Suite struct RolloutOldClientTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// `tree<version>`: the talk's files with one photo and one note of its own.
    func writeTree(_ version: Int) throws {
        try SampleContent.basicAdjectives(in: dir, at: "tree\(version)")
        try dir.write("tree\(version)/photos/85x85/kind.jpg", SampleContent.noise(9000, seed: UInt64(version)))
        try dir.write("tree\(version)/notes/v.txt", SampleContent.text(3000 + version, word: "v\(version)"))
    }

    @Test func oldClientsGetTheControlUntilCompleteThenTheCandidate() throws {
        try zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        for version in 1...3 {
            try writeTree(version)
            try zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "tree\(version)", "--quiet"])
            if version == 1 { try zinc(["update_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--version", "1"]) }
        }
        try expectOldClientsGet(RolloutWalk.control, after: "no rollout")
        for step in RolloutWalk.steps {
            try zinc(["rollout"] + step.arguments + ["--catalog", "cat", "--bundle", "B", "--distro", "master"])
            try expectOldClientsGet(step.pointer, after: step.arguments.joined(separator: " "))
        }
        #expect(try zinc(["verify", "--catalog", "cat"]).hasSuffix(": no problems\n"))
    }

    /// Each index file an old client reads names `version` at master, and that version's
    /// manifest and archive give exactly the files of `tree<version>`.
    func expectOldClientsGet(_ version: Int, after step: String) throws {
        for name in CatalogIndex.fileNames {
            var index = try dir.read("cat/" + name)
            if name.hasSuffix(".gz") { index = try GzipDecompressor.decompress(index) }
            let pointer = try OldClientReading.distributions(index: index, bundle: "B")["master"]
            #expect(pointer == version, "after \(step), \(name) names version \(pointer.map(String.init) ?? "none")")
        }
        let files = try OldClientReading.files(
            gzippedManifest: dir.read("cat/manifests/B-\(version).json.gz"), archive: dir.read("cat/archives/B-\(version).tar"))
        #expect(files.keys.sorted() == dir.files(under: "tree\(version)"), "after \(step)")
        for (path, content) in files { #expect(content == (try dir.read("tree\(version)/" + path)), "after \(step): \(path)") }
    }
}
