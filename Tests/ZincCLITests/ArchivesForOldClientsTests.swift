import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Archives where a client needs one, end to end: old clients (JavaZinc, the Python
/// tool) read the index, `distributions[D]`, the manifest, then the archive, and find
/// every version a pointer names there; a client syncing by archive gets the exact tree.
@Suite struct ArchivesForOldClientsTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try zinc("create_catalog", "--id", "com.example.app", "--dest", "cat")
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// Imports `tree<version>` (the talk's files, one of them changed per version) as
    /// version `version` of bundle B.
    func importVersion(_ version: Int) throws {
        try SampleContent.basicAdjectives(in: dir, at: "tree\(version)")
        try dir.write("tree\(version)/photos/85x85/kind.jpg", SampleContent.noise(9000, seed: UInt64(version)))
        try dir.write("tree\(version)/notes/v.txt", SampleContent.text(3000 + version, word: "v\(version)"))
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "tree\(version)", "--quiet")
    }

    @Test func readersOfThePublishedCatalogFindEveryVersionAPointerNames() throws {
        for version in 1...4 { try importVersion(version) }
        #expect(dir.files(under: "cat/archives").isEmpty)
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1")
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "3")
        try zinc("promote", "--catalog", "cat", "B", "test", "master")
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "2")
        try zinc("clean", "--catalog", "cat", "--force", "--grace", "0")
        try zinc("publish", "--catalog", "cat", "--to", "pub", "--quiet")
        #expect(dir.files(under: "pub/archives") == ["B-1.tar", "B-2.tar", "B-3.tar"], "version 4 is named by no pointer")

        // As JavaZinc and the Python tool read a catalog.
        let index = try GzipDecompressor.decompress(dir.read("pub/catalog.json.gz"))
        let distributions = try OldClientReading.distributions(index: index, bundle: "B")
        #expect(distributions == ["master": 3, "_master": 1, "test": 2, "_test": 3])
        for (distro, version) in distributions {
            let files = try OldClientReading.files(
                gzippedManifest: dir.read("pub/manifests/B-\(version).json.gz"), archive: dir.read("pub/archives/B-\(version).tar"))
            #expect(files.keys.sorted() == dir.files(under: "tree\(version)"), "\(distro)")
            for (path, content) in files { #expect(content == (try dir.read("tree\(version)/" + path)), "\(distro): \(path)") }
        }
        let verify = try zinc.succeeds(["verify", "--catalog", "pub"])
        #expect(
            verify.stdout == """
                1 version no distribution names has no archive: only a version a pointer names needs one
                Verified 1 bundle, 4 versions, 10 objects, 3 archives: no problems

                """)
    }

    @Test func promoteRebuildsTheArchiveOfTheVersionItNamesWhenItIsMissing() throws {
        for version in 1...2 { try importVersion(version) }
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "2")
        let built = try dir.read("cat/archives/B-2.tar")
        try FileManager.default.removeItem(atPath: dir.path + "/cat/archives/B-2.tar")
        try zinc("promote", "--catalog", "cat", "B", "test", "master")
        #expect(try dir.read("cat/archives/B-2.tar") == built, "byte for byte the archive update_distro built")
        try zinc.succeeds(["verify", "--catalog", "cat"])
    }

    @Test func aClientSyncingMasterByItsArchiveGetsTheExactTree() throws {
        for version in 1...2 { try importVersion(version) }
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2")
        #expect(dir.files(under: "cat/archives") == ["B-2.tar"])
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try zinc("repo_init", "--repo", "repo")
        try zinc("track", "--repo", "repo", "--catalog", server.url, "--bundle", "B")
        let report = try ClientSyncTests.firstBundle(ClientSyncTests.syncJSON(dir, ["--strategy", "archive"]))
        #expect(report["strategy"] as? String == "archive" && report["version"] as? Int == 2)
        #expect(try ClientSyncTests.sameFiles(dir, "tree2", "repo/bundles/com.example.app.B-2"))
    }

    @Test func updateArchivePolicySaysSetsAndFillsIn() throws {
        for version in 1...2 { try importVersion(version) }
        let pointed = "archives: kept for the versions a distribution names (config/archives.json)\n"
        #expect(try zinc("update_archive_policy", "--catalog", "cat") == pointed)
        #expect(try zinc("list", "--catalog", "cat", "--sizes").hasPrefix(pointed))
        #expect(
            try zinc("update_archive_policy", "--catalog", "cat", "--keep", "all")
                == "archives: kept for every version (config/archives.json); wrote 2 missing archives\n")
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-2.tar"])
        try importVersion(3)
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-2.tar", "B-3.tar"])
        #expect(try zinc("verify", "--catalog", "cat") == "Verified 1 bundle, 3 versions, 8 objects, 3 archives: no problems\n")
        #expect(try zinc("update_archive_policy", "--catalog", "cat", "--keep", "pointed") == pointed)
        let wrong = try zinc.run(["update_archive_policy", "--catalog", "cat", "--keep", "some"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("zinc: error: the value 'some' is invalid for '--keep <keep>'"), "\(wrong.stderr)")
    }
}
