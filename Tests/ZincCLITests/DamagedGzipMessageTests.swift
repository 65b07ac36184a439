import Foundation
import Testing
import ZincTestSupport

/// A damaged gzip file is reported in words, never as the decompressor's Swift enum.
@Suite struct DamagedGzipMessageTests {
    @Test func aDamagedGzipIndexIsNamedInWords() throws {
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try makeCatalogWithMaster(in: dir, bundle: "Core")
        try dir.zinc(["repo_init", "--repo", "app"])
        try dir.zinc(["track", "--repo", "app", "--catalog", dir.at("cat"), "--bundle", "Core"])
        try dir.write("cat/catalog.json.gz", "garbage")
        let sync = try dir.zinc.run(["sync", "--repo", "app"])
        #expect(sync.status == 1)
        #expect(
            sync.stdout.contains("file://\(dir.at("cat"))/catalog.json.gz is damaged: not a valid gzip stream (incorrect header check)\n"),
            "\(sync.stdout)")
        #expect(!(sync.stdout + sync.stderr).contains("corrupt("), "\(sync.stdout)\(sync.stderr)")
    }
}
