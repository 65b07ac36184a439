import Foundation
import Testing
import Zinc
import ZincTestSupport

/// What a release engineer types first: the version, either spelling of a command, the
/// help, and the fixes zinc offers for a typo.
@Suite struct CommandNamesTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// A catalog `cat` with BasicAdjectives version 1 as `master`.
    func makeCatalog() throws {
        try zinc("create_catalog", "--id", "com.example.app", "--dest", "cat")
        try zinc("update_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--source", "src", "--quiet")
        try zinc("update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "master", "--version", "1")
    }

    @Test func versionNamesTheReleaseAndTheCatalogFormat() throws {
        let expected = "zinc \(ZincVersion.release) (catalog format 1)\n"
        #expect(try zinc("--version") == expected)
        #expect(try zinc("version") == expected)
        // Only on its own: a command's --version is that command's option.
        try zinc.expectFailure(
            ["list", "--version"], status: 64,
            stderr: """
                zinc: error: unknown option '--version'
                Usage: zinc list [--catalog <catalog>] [--endpoint-url <url>] [--distro <distro>] [--no-versions] [--all] [--sizes] [--json]
                  See 'zinc list --help' for more information.

                """)
        try makeCatalog()
        #expect(
            try zinc("update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "test", "--version", "1")
                == "Created distribution 'test' for 'BasicAdjectives-v1'\n")
    }

    @Test func everyUnderscoreCommandAnswersToItsKebabName() throws {
        #expect(
            try zinc("create-catalog", "--id", "com.example.app", "--dest", "cat")
                == "Created catalog 'com.example.app' at \(dir.at("cat"))\n")
        #expect(
            try zinc("update-bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--source", "src", "--quiet").hasPrefix(
                "Created bundle 'BasicAdjectives' version 1 (new bundle)\n"))
        #expect(
            try zinc("update-distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "master", "--version", "1")
                == "Created distribution 'master' for 'BasicAdjectives-v1'\n")
        #expect(
            try zinc("list-bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "@master")
                == zinc("list_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "1"))
        #expect(try zinc("dump-index", "--catalog", "cat") == zinc("dump_index", "--catalog", "cat"))
        // The help shows both spellings, the underscore one first.
        let help = try zinc("--help")
        for name in [
            "create_catalog", "update_bundle", "update_distro", "update_flavorspec", "list_bundle", "list_flavorspecs",
            "dump_index", "dump_manifest", "clone_bundle", "delete_bundle", "delete_distro", "delete_flavorspec", "repo_init",
            "add_chunk_lists", "add_content_sizes", "add_manifest_chunks", "export_seed",
        ] {
            let kebab = name.replacingOccurrences(of: "_", with: "-")
            #expect(help.split(separator: "\n").contains { $0.hasPrefix("  \(name), \(kebab)") }, "\(name)")
            #expect(try zinc(kebab, "--help").contains("USAGE: zinc \(name) "), "\(kebab)")
        }
    }

    @Test func theHelpListsEachCommandOnceByGroup() throws {
        let help = try zinc("--help")
        let sections = help.split(separator: "\n").filter { $0.hasSuffix(":") && !$0.hasPrefix(" ") }
        #expect(
            sections == [
                "OPTIONS:", "SUBCOMMANDS:", "CATALOG SUBCOMMANDS:", "INSPECT SUBCOMMANDS:", "MAINTAIN SUBCOMMANDS:",
                "SERVE SUBCOMMANDS:", "CLIENT SUBCOMMANDS:",
            ])
        let commands = help.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.hasPrefix("  See ") }
            .map { $0.split(separator: " ")[0].trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
        #expect(
            commands == [
                "-h", "version", "create_catalog", "update_bundle", "update_distro", "promote", "update_flavorspec",
                "update_archive_policy", "publish", "keygen", "sign", "rollout", "list", "list_bundle", "list_flavorspecs", "dump_index",
                "dump_manifest", "diff",
                "clone_bundle", "export_seed", "verify", "clean", "prune", "delete_bundle", "delete_distro", "delete_flavorspec",
                "add_chunk_lists", "add_content_sizes", "add_manifest_chunks",
                "serve", "repo_init", "track", "untrack", "sync", "status", "repo",
            ])
        #expect(
            help.contains("Python tool's spellings (bundle:update, catalog:list, ...) work too: 'zinc help\npython-aliases' lists them."))
    }

    @Test func onePythonAliasesTopicListsEveryPythonSpelling() throws {
        let aliases = [
            "catalog:create", "catalog:list", "bundle:update", "bundle:list", "bundle:clone", "distro:update",
            "flavorspec:list", "flavorspec:update", "flavorspec:delete", "dump:index", "dump:manifest",
            "dump:flavorspec", "debug:flavors", "catalog:verify", "bundle:verify", "catalog:clean", "bundle:delete", "distro:delete",
        ]
        let table = try zinc("python-aliases")
        let names = table.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.split(separator: " ")[0]) }
        #expect(names == aliases)
        #expect(
            table.contains(
                "bundle:update      The Python tool's spelling of update_bundle; prints only the\n"
                    + "                   version number, as that tool does.\n"))
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let topic = try zinc("help", "python-aliases")
        #expect(topic.contains("Scripts written for the original Python tool run unchanged"))
        #expect(topic.contains(table))
    }

    @Test func aMistypedCommandGetsTheNearestName() throws {
        try zinc.expectFailure(
            ["update_bundel", "--catalog", "cat", "--name", "BasicAdjectives", "--source", "src"], status: 64,
            stderr: "zinc: error: unknown command 'update_bundel'; did you mean 'update_bundle'?\n")
        try zinc.expectFailure(
            ["update-bundel"], status: 64,
            stderr: "zinc: error: unknown command 'update-bundel'; did you mean 'update-bundle'?\n")
        try zinc.expectFailure(["sycn"], status: 64, stderr: "zinc: error: unknown command 'sycn'; did you mean 'sync'?\n")
        try zinc.expectFailure(
            ["bundle:updat"], status: 64,
            stderr: "zinc: error: unknown command 'bundle:updat'; did you mean 'bundle:update'?\n")
        try zinc.expectFailure(
            ["frobnicate"], status: 64,
            stderr: "zinc: error: unknown command 'frobnicate'; 'zinc --help' lists the commands\n")
    }

    @Test func aMistypedOptionGetsTheNearestOption() throws {
        try zinc.expectFailure(
            ["list", "--catalgo", "cat"], status: 64,
            stderr: """
                zinc: error: unknown option '--catalgo'. Did you mean '--catalog'?
                Usage: zinc list [--catalog <catalog>] [--endpoint-url <url>] [--distro <distro>] [--no-versions] [--all] [--sizes] [--json]
                  See 'zinc list --help' for more information.

                """)
        let result = try zinc.run(["bundle:list", "-c", "cat", "-b", "B", "-v", "1", "--flavr", "phone"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("zinc: error: unknown option '--flavr'. Did you mean '--flavor'?\n"))
    }

    /// `--version master` where `@master` was meant: every command that takes a version
    /// says so, as a usage error, and changes nothing.
    @Test func aDistroNameWithoutItsAtSignGetsTheFix() throws {
        try makeCatalog()
        let message = "zinc: error: invalid version 'master': expected a number, 'latest' or '@DISTRO'; did you mean '@master'?\n"
        for arguments in [
            ["verify", "--catalog", "cat", "--bundle", "BasicAdjectives", "--version", "master"],
            ["clone_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "master", "--dest", "out"],
            ["dump_manifest", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "master"],
            ["list_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "master"],
            ["update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "test", "--version", "master"],
            ["bundle:list", "-c", "cat", "-b", "BasicAdjectives", "-v", "master"],
        ] {
            try zinc.expectFailure(arguments, status: 64, stderr: message)
        }
        #expect(!dir.exists("out"))
        #expect(try zinc("list", "--catalog", "cat") == "BasicAdjectives [1=(master)]\n")
        // Neither a number nor a name: no guess.
        try zinc.expectFailure(
            ["dump_manifest", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "0"], status: 64,
            stderr: "zinc: error: invalid version '0': expected a number, 'latest' or '@DISTRO'\n")
    }

    /// `track --catalog` takes a plain path too, kept as the file:// URL of its absolute
    /// form so that a sync from any folder finds the catalog.
    @Test func trackTakesALocalPath() throws {
        try makeCatalog()
        try zinc("repo_init", "--repo", "repo")
        #expect(
            try zinc("track", "--repo", "repo", "--catalog", "cat", "--bundle", "BasicAdjectives")
                == "Tracking 'BasicAdjectives' of com.example.app at distribution 'master'\n")
        // The same catalog by its absolute path is the same source, not a second one.
        try zinc("track", "--repo", "repo", "--catalog", dir.at("cat") + "/", "--bundle", "BasicAdjectives")
        let absolute = URL(fileURLWithPath: dir.at("cat")).resolvingSymlinksInPath().path
        let state = try #require(try JSONSerialization.jsonObject(with: Data(dir.read("repo/repo.json"))) as? [String: Any])
        let catalogs = try #require(state["catalogs"] as? [String: [String: Any]])
        #expect(catalogs["com.example.app"]?["sources"] as? [String] == ["file://" + absolute])

        try FileManager.default.createDirectory(atPath: dir.at("elsewhere"), withIntermediateDirectories: false)
        let sync = try ZincRunner(in: dir.at("elsewhere")).run(["sync", "--repo", "../repo"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(dir.files(under: "repo/bundles/com.example.app.BasicAdjectives-1") == dir.files(under: "src"))

        for location in ["ftp://example.com/cat", ""] {
            try zinc.expectFailure(
                ["track", "--repo", "repo", "--catalog", location, "--bundle", "BasicAdjectives"], status: 1,
                stderr: "zinc: error: unsupported catalog URL '\(location)': use http://, https://, s3://, file:// or a local path\n")
        }
    }
}
