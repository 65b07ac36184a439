import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The Python tool's spellings: each means what its zinc command means, so scripts
/// written for that tool keep working.
@Suite struct PythonAliasTests {
    let dir: TemporaryDirectory
    static let cat = "stores/com.mindsnacks.french"

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// A catalog with BasicAdjectives 1 and 2, made through the aliases.
    func makeCatalog() throws {
        #expect(
            try zinc("catalog:create", "com.mindsnacks.french", "-s", "stores")
                == "Created catalog 'com.mindsnacks.french' at \(dir.at(Self.cat))\n")
        #expect(try zinc("bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src") == "1\n")
        try dir.write("src/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        #expect(try zinc("bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src") == "2\n")
    }

    @Test func catalogCreateUsesTheCatalogsFolderByDefault() throws {
        #expect(
            try zinc("catalog:create", "com.example.app")
                == "Created catalog 'com.example.app' at \(dir.at("catalogs/com.example.app"))\n")
        #expect(dir.exists("catalogs/com.example.app/catalog.json"))
        #expect(
            try zinc("catalog:create", "com.example.other", "--storage", "file://elsewhere")
                == "Created catalog 'com.example.other' at \(dir.at("elsewhere/com.example.other"))\n")
        #expect(dir.exists("elsewhere/com.example.other/config.json"))
        try zinc.expectFailure(
            ["catalog:create", "com.example.app"], message: "a catalog already exists at '\(dir.at("catalogs/com.example.app"))'")
    }

    @Test func bundleUpdatePrintsOnlyTheVersion() throws {
        try makeCatalog()
        #expect(try zinc("bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src") == "2\n")
        #expect(try zinc("bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src", "-f") == "3\n")
        #expect(
            try CatalogIndex.parse(dir.read(Self.cat + "/catalog.json"), path: "catalog.json").bundles["BasicAdjectives"]?.versions == [
                1, 2, 3,
            ])
    }

    @Test func distroUpdateAndCatalogListMatchTheirCommands() throws {
        try makeCatalog()
        try zinc("distro:update", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "master", "-v", "1")
        try zinc("distro:update", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "test", "-v", ":latest")
        try zinc("distro:update", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "master", "-v", "@test")
        try zinc("distro:update", "-c", Self.cat, "--bundle", "BasicAdjectives", "--distro", "test", "--version", "1", "--no-prev-distro")
        let index = try CatalogIndex.parse(dir.read(Self.cat + "/catalog.json"), path: "catalog.json")
        #expect(index.bundles["BasicAdjectives"]?.distributions == ["master": 2, "_master": 1, "test": 1])

        #expect(try zinc("catalog:list", "-c", Self.cat) == "BasicAdjectives [1=(_master, test), 2=(master)]\n")
        #expect(try zinc("catalog:list", "-c", Self.cat) == zinc("list", "--catalog", Self.cat))
        #expect(try zinc("catalog:list", "-c", Self.cat, "-d", "master") == zinc("list", "--catalog", Self.cat, "--distro", "master"))
        #expect(try zinc("catalog:list", "-c", Self.cat, "--no-versions") == "BasicAdjectives\n")
    }

    @Test func bundleListAndDumpsMatchTheirCommands() throws {
        try makeCatalog()
        try zinc("distro:update", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "master", "-v", "1")
        #expect(
            try zinc("bundle:list", "-c", Self.cat, "-b", "BasicAdjectives", "-v", ":latest")
                == "Basic Adjectives.js\naudio/basic-adj-11.caf\naudio/basic-adj-12.caf\nphotos/85x85/kind.jpg\n")
        #expect(
            try zinc("bundle:list", "-c", Self.cat, "-b", "BasicAdjectives", "-v", "@master", "--sha")
                == zinc("list_bundle", "--catalog", Self.cat, "--name", "BasicAdjectives", "--version", "1", "--sha"))
        #expect(try zinc("dump:index", "-c", Self.cat) == zinc("dump_index", "--catalog", Self.cat))
        #expect(
            try zinc("dump:manifest", "-c", Self.cat, "-b", "BasicAdjectives", "-v", "@master")
                == zinc("dump_manifest", "--catalog", Self.cat, "--name", "BasicAdjectives", "--version", "1"))
    }

    @Test func bundleCloneWritesIntoTheCurrentFolderByDefault() throws {
        try makeCatalog()
        let folder = "com.mindsnacks.french.BasicAdjectives-1"
        #expect(
            try zinc("bundle:clone", "-c", Self.cat, "-b", "BasicAdjectives", "-v", "1")
                == "Cloned 'BasicAdjectives' version 1 (3 files) to ./\(folder)\n")
        #expect(dir.files(under: folder) == ["Basic Adjectives.js", "audio/basic-adj-11.caf", "photos/85x85/kind.jpg"])
        #expect(
            try zinc("bundle:clone", "-c", Self.cat, "-b", "BasicAdjectives", "-v", ":latest", "-p", "out", "--include-manifest")
                == "Cloned 'BasicAdjectives' version 2 (4 files) to out/com.mindsnacks.french.BasicAdjectives-2\n"
                + "Wrote its manifest to out/com.mindsnacks.french.BasicAdjectives-2.json\n")
    }

    @Test func flavorspecAliasesStoreListAndDelete() throws {
        try makeCatalog()
        // Archives at import, as that tool writes them.
        try zinc("update_archive_policy", "--catalog", Self.cat, "--keep", "all")
        try dir.write("devices.json", #"{"phone": ["- *.caf", "+ *"], "tablet": ["+ *"]}"#)
        #expect(try zinc("flavorspec:update", "-c", Self.cat, "-p", "devices.json") == "Stored flavorspec 'devices'\n")
        #expect(try zinc("flavorspec:update", "-c", Self.cat, "-p", "devices.json", "-n", "other") == "Stored flavorspec 'other'\n")
        #expect(try zinc("flavorspec:list", "-c", Self.cat) == "devices\nother\n")
        #expect(try zinc("flavorspec:delete", "-c", Self.cat, "--name", "other") == "Deleted flavorspec 'other'\n")
        #expect(try zinc("flavorspec:list", "-c", Self.cat) == zinc("list_flavorspecs", "--catalog", Self.cat))

        #expect(try zinc("bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src", "--flavors", "devices") == "3\n")
        #expect(
            try zinc("bundle:list", "-c", Self.cat, "-b", "BasicAdjectives", "-v", "3", "--flavor", "phone")
                == "Basic Adjectives.js\nphotos/85x85/kind.jpg\n")
        #expect(
            dir.files(under: Self.cat + "/archives") == [
                "BasicAdjectives-1.tar", "BasicAdjectives-2.tar",
                "BasicAdjectives-3~phone.tar", "BasicAdjectives-3~tablet.tar",
            ])
    }

    /// The options that tool takes before its command: --format, --loglevel, -C.
    @Test func globalOptionsGoBeforeTheCommand() throws {
        try makeCatalog()
        try zinc("distro:update", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "master", "-v", "1")
        #expect(
            try zinc("--format", "json", "catalog:list", "-c", Self.cat)
                == #"{"bundle_name":"BasicAdjectives","distros":["master"],"versions":[1,2]}"# + "\n")
        #expect(try zinc("--format=pretty", "catalog:list", "-c", Self.cat) == zinc("catalog:list", "-c", Self.cat))
        let files = try zinc("--format", "json", "bundle:list", "-c", Self.cat, "-b", "BasicAdjectives", "-v", "1")
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        #expect(files.map { $0?["file"] } == ["Basic Adjectives.js", "audio/basic-adj-11.caf", "photos/85x85/kind.jpg"])
        #expect(files.allSatisfy { $0?["sha"]?.count == 40 })
        #expect(
            try zinc("--format", "json", "catalog:verify", "-c", Self.cat, "--quiet")
                == zinc("verify", "--catalog", Self.cat, "--json", "--quiet"))
        #expect(try zinc("--loglevel", "debug", "catalog:list", "-c", Self.cat) == zinc("catalog:list", "-c", Self.cat))

        let config = try ZincRunner(in: dir, silentStderr: false).succeeds([
            "-C", "zinc.toml", "--format", "json", "catalog:list", "-c", Self.cat,
        ])
        #expect(config.stdout.hasPrefix(#"{"bundle_name":"BasicAdjectives""#))
        #expect(
            config.stderr == "zinc: warning: ignoring 'zinc.toml': zinc does not read the Python tool's config file "
                + "(bookmarks, storages, coordinators); give -c the catalog's path or URL\n")

        try zinc.expectFailure(
            ["--loglevel", "verbose", "catalog:list", "-c", Self.cat], status: 64,
            message: "--loglevel must be 'info' or 'debug', not 'verbose'")
        try zinc.expectFailure(
            ["--format", "xml", "catalog:list", "-c", Self.cat], status: 64, message: "--format must be 'pretty' or 'json', not 'xml'")
    }

    @Test func skipMasterArchiveAndTimeoutAreTaken() throws {
        try makeCatalog()
        // Archives at import, as that tool writes them.
        try zinc("update_archive_policy", "--catalog", Self.cat, "--keep", "all")
        try dir.write("devices.json", #"{"phone": ["- *.caf", "+ *"], "tablet": ["+ *"]}"#)
        #expect(
            try zinc(
                "bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src", "--flavors", "devices.json",
                "--skip-master-archive", "--timeout", "30") == "3\n")
        #expect(!dir.exists(Self.cat + "/archives/BasicAdjectives-3.tar"))
        #expect(dir.exists(Self.cat + "/archives/BasicAdjectives-3~phone.tar"))
        let both = try zinc.run(
            [
                "bundle:update", "-c", Self.cat, "-b", "BasicAdjectives", "-p", "src", "--flavors",
                "devices.json", "--skip-master-archive", "--include-master-archive",
            ])
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("zinc: error: give --skip-master-archive or --include-master-archive, not both\n"))

        try zinc("distro:update", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "master", "-v", "3", "--timeout", "0")
        try zinc("distro:delete", "-c", Self.cat, "-b", "BasicAdjectives", "-d", "master", "--timeout", "5")
        try zinc("bundle:delete", "-c", Self.cat, "-b", "BasicAdjectives", "-v", "1", "--timeout", "5")
        try zinc("catalog:clean", "-c", Self.cat, "--timeout", "5")
        let negative = try zinc.run(["catalog:clean", "-c", Self.cat, "--timeout=-1"])
        #expect(negative.status == 64)
        #expect(negative.stderr.hasPrefix("zinc: error: --timeout must be 0 or more seconds, not -1.0\n"))
    }

    @Test func dumpFlavorspecAndDebugFlavors() throws {
        try makeCatalog()
        try dir.write("devices.json", #"{"phone": ["- *.caf", "+ *"], "tablet": ["+ *"]}"#)
        try zinc("flavorspec:update", "-c", Self.cat, "-p", "devices.json")
        #expect(
            try zinc("dump:flavorspec", "-c", Self.cat, "--name", "devices") == """
                {
                  "phone": [
                    "- *.caf",
                    "+ *"
                  ],
                  "tablet": [
                    "+ *"
                  ]
                }

                """)
        #expect(
            try zinc("debug:flavors", "--flavors", "devices.json", "-p", "src") == """
                [phone]
                + Basic Adjectives.js
                - audio/basic-adj-11.caf
                - audio/basic-adj-12.caf
                + photos/85x85/kind.jpg

                [tablet]
                + Basic Adjectives.js
                + audio/basic-adj-11.caf
                + audio/basic-adj-12.caf
                + photos/85x85/kind.jpg


                """)
    }

    @Test func everyAliasHasHelp() throws {
        for alias in [
            "catalog:create", "catalog:list", "bundle:update", "bundle:list", "bundle:clone", "distro:update",
            "flavorspec:list", "flavorspec:update", "flavorspec:delete", "dump:index", "dump:manifest",
            "dump:flavorspec", "debug:flavors",
        ] {
            #expect(try zinc(alias, "--help").contains("USAGE: zinc \(alias)"))
        }
    }
}
