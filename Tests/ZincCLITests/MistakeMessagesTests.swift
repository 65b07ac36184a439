import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The usual slips of a release engineer, each answered with what was meant: a mistyped
/// option, bundle, distribution, version or catalog, a bundle created by a typo.
@Suite struct MistakeMessagesTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "GameAssets", "--source", "src"])
        try dir.zinc(
            ["update_distro", "--catalog", "cat", "--bundle", "GameAssets", "--distro", "test", "--version", "1"])
    }

    func expectUsage(_ arguments: [String], message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try zinc.run(arguments)
        #expect(result.status == 64, sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("zinc: error: \(message)\n"), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// A mistyped required option is named, with the nearest option, rather than reported
    /// as the required one missing; so is one of the Python tool's spellings.
    @Test func mistypedRequiredOption() throws {
        try expectUsage(
            ["update_bundle", "--catalog", "cat", "--bundle", "GameAssets", "--sorce", "src"],
            message: "unknown option '--sorce'. Did you mean '--source'?")
        try expectUsage(
            ["update_bundle", "--catalog", "cat", "--bunlde", "GameAssets", "--source", "src"],
            message: "unknown option '--bunlde'. Did you mean '--bundle'?")
        try expectUsage(
            ["update_distro", "--catalog", "cat", "--bundle", "GameAssets", "--distro", "test", "--verison", "1"],
            message: "unknown option '--verison'. Did you mean '--version'?")
        try expectUsage(
            ["track", "--catalgo", "cat", "--bundle", "GameAssets"], message: "unknown option '--catalgo'. Did you mean '--catalog'?")
        try expectUsage(
            ["bundle:update", "-c", "cat", "--bundel", "GameAssets", "--path", "src"],
            message: "unknown option '--bundel'. Did you mean '--bundle'?")
        let result = try zinc.run(["update_bundle", "--catalog", "cat", "--bundle", "GameAssets", "--sorce", "src"])
        #expect(result.stderr.contains("\nUsage: zinc update_bundle "))
        // An option the command knows, spelt as a synonym, is no mistake.
        try expectUsage(
            ["update_bundle", "--catalog", "cat", "--id", "GameAssets"], message: "missing expected argument '--source <source>'")
    }

    /// An invalid version is a usage error (64); `@NAME` is suggested only for a
    /// distribution the bundle has.
    @Test func invalidVersion() throws {
        let update = ["update_distro", "--catalog", "cat", "--bundle", "GameAssets", "--distro", "master", "--version"]
        try expectUsage(update + ["abc"], message: "invalid version 'abc': expected a number, 'latest' or '@DISTRO'")
        try expectUsage(
            update + ["test"], message: "invalid version 'test': expected a number, 'latest' or '@DISTRO'; did you mean '@test'?")
        try expectUsage(
            ["list_bundle", "--catalog", "cat", "--bundle", "GameAssets", "--version", "tset"],
            message: "invalid version 'tset': expected a number, 'latest' or '@DISTRO'; did you mean '@test'?")
    }

    /// A new distribution a typo away from one the bundle has is refused without
    /// `--create` (a release promotion to `mastr` would go live unseen); the Python
    /// tool's `distro:update` creates it as before.
    @Test func mistypedNewDistribution() throws {
        try dir.zinc(["promote", "--catalog", "cat", "GameAssets", "test", "master"])
        try zinc.expectFailure(
            ["promote", "--catalog", "cat", "GameAssets", "test", "mastr"],
            message:
                "bundle 'GameAssets' has no distribution 'mastr'; did you mean 'master'? (--create creates 'mastr'; nothing was changed)",
            quietStdout: false)
        let distro = ["update_distro", "--catalog", "cat", "--bundle", "GameAssets", "--distro", "tset", "--version", "1"]
        try zinc.expectFailure(
            distro,
            message: "bundle 'GameAssets' has no distribution 'tset'; did you mean 'test'? (--create creates 'tset'; nothing was changed)",
            quietStdout: false)
        #expect(try dir.zinc(["list", "--catalog", "cat"]) == "GameAssets [1=(master, test)]\n")
        try dir.zinc(["promote", "--catalog", "cat", "--create", "GameAssets", "test", "mastr"])
        try dir.zinc(distro + ["--create"])
        try dir.zinc(["promote", "--catalog", "cat", "GameAssets", "test", "beta"])
        try dir.zinc(["distro:update", "-c", "cat", "-b", "GameAssets", "-d", "maste", "-v", "1"])
        #expect(
            try dir.zinc(["list", "--catalog", "cat"])
                == "GameAssets [1=(beta, maste, master, mastr, test, tset)]\n")
    }

    /// A negative version reaches the version check (not "missing value"); `v2` is
    /// answered with `2`; the usage line spells the bundle and distribution as the docs do.
    @Test func versionValuesAndUsageSpellings() throws {
        let update = ["update_distro", "--catalog", "cat", "--bundle", "GameAssets", "--distro", "master", "--version"]
        try expectUsage(update + ["-1"], message: "invalid version '-1': expected a number, 'latest' or '@DISTRO'")
        try expectUsage(
            ["bundle:verify", "-c", "cat", "-b", "GameAssets", "-v", "-1"],
            message: "invalid version '-1': expected a number, 'latest' or '@DISTRO'")
        try expectUsage(update + ["v1"], message: "invalid version 'v1': expected a number, 'latest' or '@DISTRO'; did you mean '1'?")
        let missing = try zinc.run(["update_bundle", "--catalog", "cat", "--source", "src"])
        #expect(missing.stderr.hasPrefix("zinc: error: missing expected argument '--bundle <bundle>'\n"), "\(missing.stderr)")
        let distro = try zinc.run(["update_distro", "--catalog", "cat", "--version", "1"])
        #expect(distro.stderr.contains("--bundle <bundle> --distro <distro> --version <version>"), "\(distro.stderr)")
    }

    /// A mistyped `--repo` is answered with the repo beside it; the way to create one
    /// can be pasted.
    @Test func mistypedRepo() throws {
        try dir.zinc(["repo_init", "--repo", "app"])
        try zinc.expectFailure(
            ["status", "--repo", "ap"], message: "no Zinc repo at 'ap'; did you mean 'app'? ('zinc repo_init --repo ap' creates one)",
            quietStdout: false)
        try zinc.expectFailure(
            ["sync", "--repo", "elsewhere"], message: "no Zinc repo at 'elsewhere' ('zinc repo_init --repo elsewhere' creates one)",
            quietStdout: false)
        try dir.zinc(["repo_init", "--repo", "ap"])
        try dir.zinc(["status", "--repo", "ap"])
    }

    @Test func mistypedNames() throws {
        try zinc.expectFailure(
            ["list_bundle", "--catalog", "cat", "--bundle", "GameAsset", "--version", "1"],
            message: "no bundle 'GameAsset' in the catalog; did you mean 'GameAssets'?", quietStdout: false)
        try zinc.expectFailure(
            ["list_bundle", "--catalog", "cat", "--bundle", "Levels", "--version", "1"], message: "no bundle 'Levels' in the catalog",
            quietStdout: false)
        try zinc.expectFailure(
            ["list_bundle", "--catalog", "cat", "--bundle", "GameAssets", "--version", "@tset"],
            message: "bundle 'GameAssets' has no distribution 'tset'; did you mean 'test'?", quietStdout: false)
        try zinc.expectFailure(
            ["delete_distro", "--catalog", "cat", "--bundle", "GameAssets", "--distro", "tets"],
            message: "bundle 'GameAssets' has no distribution 'tets'; did you mean 'test'?", quietStdout: false)
    }

    /// A catalog that is not found says where it was looked for, and the nearest catalog
    /// beside that folder or under `catalogs/`.
    @Test func mistypedCatalog() throws {
        try zinc.expectFailure(
            ["list", "--catalog", "catt"],
            message: "no catalog at 'catt' (no catalog.json in \(dir.at("catt")) or \(dir.at("catalogs/catt"))); did you mean 'cat'?",
            quietStdout: false)
        try dir.zinc(["create_catalog", "--id", "com.example.game"])
        try zinc.expectFailure(
            ["list", "--catalog", "com.example.gmae"],
            message: "no catalog at 'com.example.gmae' (no catalog.json in \(dir.at("com.example.gmae")) or "
                + "\(dir.at("catalogs/com.example.gmae"))); did you mean 'com.example.game'?", quietStdout: false)
        try zinc.expectFailure(
            ["list", "--catalog", "./nowhere/x"], message: "no catalog at './nowhere/x' (no catalog.json in \(dir.at("nowhere/x")))",
            quietStdout: false)
    }

    /// A new bundle, as a typo makes one, says so in the summary, the dry run and the JSON.
    @Test func newBundleIsNamedAsSuch() throws {
        #expect(
            try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "GameAsset", "--source", "src"]).hasPrefix(
                "Created bundle 'GameAsset' version 1 (new bundle)\n"))
        try dir.write("src/extra.txt", "more")
        #expect(
            try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "GameAssets", "--source", "src"]).hasPrefix(
                "Created bundle 'GameAssets' version 2\n"))
        let preview = try dir.zinc(
            ["update_bundle", "--catalog", "cat", "--bundle", "Other", "--source", "src", "--dry-run"])
        #expect(preview.contains("Would create a new version of 'Other' (new bundle):"))
        try dir.write("src/extra.txt", "more again")
        let json = try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Third", "--source", "src", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["new_bundle"] as? Bool == true)
    }

    /// `serve --root` says when the folder holds no catalog, or is one itself, after the
    /// address line scripts read; a missing folder is an error.
    @Test func serveRootWithoutCatalogs() throws {
        try FileManager.default.createDirectory(atPath: dir.at("empty"), withIntermediateDirectories: true)
        let empty = try ServeProcess(arguments: ["serve", "--root", "empty", "--port", "0"], in: dir.path, startupLines: 3)
        #expect(
            empty.startupLines.last
                == "warning: no catalog in '\(dir.at("empty"))' yet: each catalog folder created in it will be served at /<folder>/")
        let catalog = try ServeProcess(arguments: ["serve", "--root", "cat", "--port", "0", "--no-browser"], in: dir.path, startupLines: 2)
        #expect(catalog.startupLines.last?.hasPrefix("warning: '\(dir.at("cat"))' is itself a catalog") == true)
        try expectUsage(["serve", "--root", "missing"], message: "--root '\(dir.at("missing"))' is not a folder that can be read")
    }

    /// `repo_init DIR`, as `git init DIR`; a tracked URL typed with a trailing `/` is
    /// joined to each file's path with one `/` in messages.
    @Test func repoInitTakesTheFolder() throws {
        #expect(try dir.zinc(["repo_init", "client"]) == "Created repo \(dir.at("client"))\n")
        try dir.zinc(
            ["track", "--repo", "client", "--catalog", "file://\(dir.at("cat"))/", "--bundle", "GameAssets", "--distro", "test"])
        try FileManager.default.moveItem(atPath: dir.at("cat"), toPath: dir.at("moved"))
        let sync = try zinc.run(["sync", "--repo", "client"])
        #expect(sync.stdout.contains("file://\(dir.at("cat"))/catalog.json.gz does not exist"), "\(sync.stdout)")
        #expect(!sync.stdout.contains("//catalog.json.gz"))
        try expectUsage(["repo_init", "a", "--repo", "b"], message: "give the folder once: DIR or --repo DIR.")
    }
}
