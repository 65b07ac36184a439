import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Objects are written as unnamed files (`O_TMPFILE`) and linked into place once whole,
/// by an import and by a sync, from the archive or one by one; where the file system
/// refuses unnamed files (`ZINC_REFUSE_UNNAMED_FILES=1` plays one) they are written under
/// temporary names and renamed. Either way every object holds exactly its content, a
/// client's is read-only, and no scratch file is left behind.
@Suite struct UnnamedFileTests {
    @Test(arguments: [false, true]) func everyObjectIsWholeAndNothingIsLeftBehind(refused: Bool) throws {
        let dir = try TemporaryDirectory()
        let environment = refused ? ["ZINC_REFUSE_UNNAMED_FILES": "1"] : [:]
        let zinc = ZincRunner(in: dir, environment: environment, silentStderr: false)
        try SampleContent.basicAdjectives(in: dir, at: "src")
        try zinc.succeeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
        try zinc.succeeds(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1"])
        #expect(!dir.files(under: "cat").contains { $0.contains(".tmp-") })
        try zinc.succeeds(["verify", "--catalog", "cat"])

        let server = try ServeProcess(catalog: "cat", in: dir.path)
        for strategy in ["archive", "objects"] {
            let repo = "repo-" + strategy
            try zinc.succeeds(["repo_init", "--repo", repo])
            try zinc.succeeds(["track", "--repo", repo, "--catalog", server.url, "--bundle", "B"])
            let report = try zinc.succeeds(["sync", "--repo", repo, "--strategy", strategy, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
            let bundle = try #require((json?["bundles"] as? [[String: Any]])?.first)
            #expect(bundle["strategy"] as? String == strategy, "\(report.stdout)")
            let objects = dir.files(under: repo + "/objects")
            #expect(objects.count > 1)
            for name in objects {
                let hasher = SHA1()
                hasher.update(try dir.read(repo + "/objects/" + name))
                #expect(hasher.finalize() == name)
                let mode = try FileManager.default.attributesOfItem(atPath: dir.at(repo + "/objects/" + name))[.posixPermissions]
                #expect(mode as? Int == 0o444, "\(name)")
            }
            #expect(dir.files(under: repo + "/tmp").isEmpty)
            let folder = repo + "/bundles/com.example.app.B-1"
            #expect(dir.files(under: folder) == dir.files(under: "src"))
            for file in dir.files(under: "src") { #expect(try dir.read(folder + "/" + file) == dir.read("src/" + file)) }
        }
        _ = server
    }
}
