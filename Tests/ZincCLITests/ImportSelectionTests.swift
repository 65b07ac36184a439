import Foundation
import Testing
import Zinc
import ZincTestSupport

/// What `update_bundle` takes from a source folder: the default ignore list,
/// `.zincignore`, `--exclude`, and catalogs or client repos found inside.
@Suite struct ImportSelectionTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        for path in [
            "src/a.png", "src/docs/readme.txt", "src/raw/art.psd", "src/raw/keep.psd", "src/.git/HEAD",
            "src/.git/objects/ab", "src/Thumbs.db", "src/sub/.DS_Store", "src/notes.txt~", "src/.notes.txt.swp",
            "src/desktop.ini", "src/build/out.bin", "src/sub/build/kept.txt",
        ] {
            try dir.write(path, Array("content of \(path)".utf8))
        }
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
    }

    private func files(version: Int) throws -> [String] {
        try dir.zinc(["list_bundle", "--catalog", "cat", "--name", "B", "--version", "\(version)"])
            .split(separator: "\n").map(String.init)
    }

    @Test func leavesOutTheDefaultsTheIgnoreFileAndExcludes() throws {
        try dir.write("src/.zincignore", Array("# art sources\n*.psd\n!keep.psd\n/build/\n".utf8))
        try dir.zinc.succeeds(
            [
                "update_bundle", "--catalog", "cat", "--name", "B", "--source", "src",
                "--exclude", "docs/", "--quiet",
            ])
        #expect(try files(version: 1) == ["a.png", "raw/keep.psd", "sub/build/kept.txt"])

        // Without the default list, version-control folders and clutter come in too.
        try dir.zinc.succeeds(
            [
                "update_bundle", "--catalog", "cat", "--name", "B", "--source", "src",
                "--no-default-ignores", "--quiet",
            ])
        #expect(
            try files(version: 2) == [
                ".git/HEAD", ".git/objects/ab", ".notes.txt.swp", ".zincignore", "Thumbs.db",
                "a.png", "desktop.ini", "docs/readme.txt", "notes.txt~", "raw/keep.psd",
                "sub/.DS_Store", "sub/build/kept.txt",
            ])
    }

    @Test func skipsACatalogOrRepoInsideTheSource() throws {
        try dir.zinc(["create_catalog", "--id", "com.example.inner", "--dest", "src/published"])
        try dir.zinc(["update_bundle", "--catalog", "src/published", "--name", "X", "--source", "src/docs"])
        try dir.zinc(["repo_init", "--repo", "src/client"])
        try dir.write("src/client/bundles/x.txt", Array("x".utf8))
        let result = try ZincRunner(in: dir, silentStderr: false).succeeds(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
        #expect(result.stderr.contains("skipping 'src/published': it is a Zinc catalog, not content"), "\(result.stderr)")
        #expect(result.stderr.contains("skipping 'src/client': it is a Zinc client repo, not content"), "\(result.stderr)")
        #expect(try !files(version: 1).contains { $0.hasPrefix("published/") || $0.hasPrefix("client/") })
    }

    @Test func refusesABadPatternNamingWhereItCameFrom() throws {
        try dir.write("src/.zincignore", Array("ok\n[oops\n".utf8))
        try dir.zinc.expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            message: "src/.zincignore:2: '[oops' has a '[' without its ']'")
        #expect(!FileManager.default.fileExists(atPath: dir.at("cat/manifests/B-1.json")))
    }
}
