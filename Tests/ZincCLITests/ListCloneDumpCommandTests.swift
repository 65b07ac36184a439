import Foundation
import Testing
import Zinc
import ZincTestSupport

/// list, list_bundle, clone_bundle, dump_index, dump_manifest and the flavorspec
/// commands, run as a user runs them: exact stdout, files on disk, exit status.
@Suite struct ListCloneDumpCommandTests {
    let dir: TemporaryDirectory
    static let jpg = SampleContent.noise(8640, seed: 1)
    static let caf = SampleContent.text(20000, word: "pcm")
    static let js = SampleContent.text(3000, word: "lesson")
    static let caf12 = SampleContent.text(9000, word: "hackety")

    /// BasicAdjectives 1 (3 files) and 2 (plus audio/basic-adj-12.caf), master at 2 after
    /// being at 1, test at 2; Zebra 1 without distributions.
    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try zinc("create_catalog", "--id", "com.mindsnacks.french", "--dest", "cat")
        try zinc("update_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--source", "src")
        try dir.write("src/audio/basic-adj-12.caf", Self.caf12)
        try zinc("update_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--source", "src")
        try zinc("update_bundle", "--catalog", "cat", "--name", "Zebra", "--source", "src/audio")
        try zinc("update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "master", "--version", "1")
        try zinc("update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "master", "--version", "2")
        try zinc("update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "test", "--version", "latest")
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// The bytes of `content`'s object as the catalog stores it gzipped.
    func storedSize(_ content: [UInt8]) throws -> Int {
        let sha = sha1Hex(content)
        let path = dir.at("cat/objects/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha).gz")
        return try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    @Test func listsBundlesVersionsAndDistros() throws {
        #expect(
            try zinc("list", "--catalog", "cat") == """
                BasicAdjectives [1=(_master), 2=(master, test)]
                Zebra [1]

                """)
        #expect(try zinc("list", "--catalog", "cat", "--distro", "test") == "BasicAdjectives [2=(master, test)]\n")
        #expect(try zinc("list", "--catalog", "cat", "--distro", "nobody") == "")
        #expect(try zinc("list", "--catalog", "cat", "--no-versions") == "BasicAdjectives\nZebra\n")
    }

    @Test func listsAsOneJSONDocument() throws {
        let json = try zinc("list", "--catalog", "cat", "--json")
        let expected = JSONValue.object([
            "catalog": .string("com.mindsnacks.french"),
            "bundles": .array([
                .object([
                    "name": .string("BasicAdjectives"),
                    "deleted": .bool(false),
                    "versions": .array([
                        .object(["version": .int(1), "distributions": .array([.string("_master")])]),
                        .object(["version": .int(2), "distributions": .array([.string("master"), .string("test")])]),
                    ]),
                ]),
                .object([
                    "name": .string("Zebra"),
                    "deleted": .bool(false),
                    "versions": .array([
                        .object(["version": .int(1), "distributions": .array([])])
                    ]),
                ]),
            ]),
        ])
        #expect(json == String(decoding: expected.prettyEncoded(), as: UTF8.self))
        #expect(json.hasPrefix("{\n  \"bundles\": [\n    {\n      \"deleted\": false,\n      \"name\": \"BasicAdjectives\","))
    }

    @Test func listsTheFilesOfAVersion() throws {
        #expect(
            try zinc("list_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "@_master") == """
                Basic Adjectives.js
                audio/basic-adj-11.caf
                photos/85x85/kind.jpg

                """)
        #expect(
            try zinc("list_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "latest", "--sha") == """
                \(sha1Hex(Self.js)) Basic Adjectives.js
                \(sha1Hex(Self.caf)) audio/basic-adj-11.caf
                \(sha1Hex(Self.caf12)) audio/basic-adj-12.caf
                \(sha1Hex(Self.jpg)) photos/85x85/kind.jpg

                """)
        #expect(
            try zinc("list_bundle", "--catalog", "cat", "--name", "Zebra", "--version", "1", "--json") == """
                {
                  "bundle": "Zebra",
                  "catalog": "com.mindsnacks.french",
                  "files": [
                    {
                      "format": "gz",
                      "path": "basic-adj-11.caf",
                      "sha": "\(sha1Hex(Self.caf))",
                      "size": \(Self.caf.count),
                      "stored_size": \(try storedSize(Self.caf))
                    },
                    {
                      "format": "gz",
                      "path": "basic-adj-12.caf",
                      "sha": "\(sha1Hex(Self.caf12))",
                      "size": \(Self.caf12.count),
                      "stored_size": \(try storedSize(Self.caf12))
                    }
                  ],
                  "flavor": null,
                  "totals": {
                    "files": 2,
                    "size": \(Self.caf.count + Self.caf12.count),
                    "stored_size": \(try storedSize(Self.caf) + storedSize(Self.caf12)),
                    "unsized_files": 0
                  },
                  "version": 1
                }

                """)
        try zinc.expectFailure(
            ["list_bundle", "--catalog", "cat", "--name", "Zebra", "--version", "1", "--flavor", "phone"],
            message: "bundle 'Zebra' version 1 has no flavor 'phone' (it has no flavors)")
        try zinc.expectFailure(
            ["list_bundle", "--catalog", "cat", "--name", "Zebra", "--version", "@master"],
            message: "bundle 'Zebra' has no distribution 'master'")
        // An invalid version is a usage error: MistakeMessagesTests.
    }

    @Test func clonesAVersionWithItsManifestBeside() throws {
        let folder = "com.mindsnacks.french.BasicAdjectives-2"
        #expect(
            try zinc(
                "clone_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "@master",
                "--dest", "out", "--include-manifest") == """
                    Cloned 'BasicAdjectives' version 2 (4 files) to out/\(folder)
                    Wrote its manifest to out/\(folder).json

                    """)
        #expect(
            dir.files(under: "out") == [
                "\(folder).json", "\(folder)/Basic Adjectives.js", "\(folder)/audio/basic-adj-11.caf",
                "\(folder)/audio/basic-adj-12.caf", "\(folder)/photos/85x85/kind.jpg",
            ])
        #expect(try dir.read("out/\(folder)/photos/85x85/kind.jpg") == Self.jpg)
        #expect(try dir.read("out/\(folder)/audio/basic-adj-11.caf") == Self.caf)
        #expect(try dir.read("out/\(folder).json") == dir.read("cat/manifests/BasicAdjectives-2.json"))

        try dir.write("out/\(folder)/audio/basic-adj-11.caf", "edited")
        try zinc.expectFailure(
            ["clone_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--version", "2", "--dest", "out"],
            message: "'out/\(folder)' already exists; remove it or clone into another folder")
        #expect(try dir.read("out/\(folder)/audio/basic-adj-11.caf") == Array("edited".utf8))
    }

    @Test func refusesAManifestThatWouldWriteOutsideTheFolder() throws {
        let sha = sha1Hex(Self.js)
        try dir.write(
            "cat/manifests/Zebra-1.json",
            """
            {"catalog":"com.mindsnacks.french","bundle":"Zebra","version":1,"flavors":[],
             "files":{"../../escaped.js":{"sha":"\(sha)","formats":{"gz":{"size":1}}}}}
            """)
        try zinc.expectFailure(
            ["clone_bundle", "--catalog", "cat", "--name", "Zebra", "--version", "1", "--dest", "out/inner"],
            message: "'\(dir.at("cat"))/manifests/Zebra-1.json' is not a valid Zinc file: "
                + "invalid path '../../escaped.js': it has a '..' component")
        #expect(!dir.exists("out"))
        #expect(!dir.exists("escaped.js"))
    }

    @Test func dumpsTheIndexAndAManifestAsIndentedJSON() throws {
        try zinc("create_catalog", "--id", "com.example.small", "--dest", "small")
        try zinc("update_bundle", "--catalog", "small", "--name", "B", "--source", "src/photos")
        try zinc("update_distro", "--catalog", "small", "--id", "B", "--name", "master", "--version", "1")
        #expect(
            try zinc("dump_index", "--catalog", "small") == """
                {
                  "bundles": {
                    "B": {
                      "distributions": {
                        "master": 1
                      },
                      "next_version": 1,
                      "versions": [
                        1
                      ]
                    }
                  },
                  "format": "1",
                  "id": "com.example.small"
                }

                """)
        #expect(
            try zinc("dump_manifest", "--catalog", "small", "--name", "B", "--version", "@master") == """
                {
                  "bundle": "B",
                  "catalog": "com.example.small",
                  "files": {
                    "85x85/kind.jpg": {
                      "formats": {
                        "raw": {
                          "size": 8640
                        }
                      },
                      "sha": "\(sha1Hex(Self.jpg))"
                    }
                  },
                  "flavors": [],
                  "version": 1
                }

                """)
        try zinc.expectFailure(
            ["dump_manifest", "--catalog", "small", "--name", "B", "--version", "2"],
            message: "bundle 'B' has no version 2")
    }

    @Test func storesFlavorspecsAndImportsWithThemByName() throws {
        try dir.write("icons/a.png", SampleContent.noise(500, seed: 1))
        try dir.write("icons/b.png", SampleContent.noise(500, seed: 2))
        try dir.write("icons/a@2x.png", SampleContent.noise(900, seed: 3))
        try dir.write("specs/devices.json", #"{"phone": ["- *@2x.png", "+ *"], "tablet": ["+ *"]}"#)
        #expect(try zinc("update_flavorspec", "--catalog", "cat", "--path", "specs/devices.json") == "Stored flavorspec 'devices'\n")
        // Archives at import, to look at them.
        try zinc("update_archive_policy", "--catalog", "cat", "--keep", "all")
        #expect(
            try zinc("update_flavorspec", "--catalog", "cat", "--path", "specs/devices.json", "--name", "copy")
                == "Stored flavorspec 'copy'\n")
        #expect(try zinc("list_flavorspecs", "--catalog", "cat") == "copy\ndevices\n")

        #expect(
            try zinc("update_bundle", "--catalog", "cat", "--name", "Icons", "--source", "icons", "--flavors", "devices").hasPrefix(
                "Created bundle 'Icons' version 1 (new bundle)\n"))
        #expect(dir.files(under: "cat/archives").filter { $0.hasPrefix("Icons") } == ["Icons-1~phone.tar", "Icons-1~tablet.tar"])
        let manifest = try Manifest.parse(dir.read("cat/manifests/Icons-1.json"), path: "Icons-1.json")
        #expect(manifest.flavors == ["phone", "tablet"])
        #expect(manifest.files["a@2x.png"]?.flavors == ["tablet"])
        let phone = try #require(TarListing.members(dir.read("cat/archives/Icons-1~phone.tar")))
        #expect(phone.map(\.name) == [sha1Hex(SampleContent.noise(500, seed: 1)), sha1Hex(SampleContent.noise(500, seed: 2))].sorted())
        #expect(try zinc("list_bundle", "--catalog", "cat", "--name", "Icons", "--version", "1", "--flavor", "phone") == "a.png\nb.png\n")

        // A file path works as well, and --include-master-archive adds the all-files archive.
        #expect(
            try zinc(
                "update_bundle", "--catalog", "cat", "--name", "Icons", "--source", "icons", "--force",
                "--flavors", "specs/devices.json", "--include-master-archive"
            ).hasPrefix("Created bundle 'Icons' version 2\n"))
        #expect(
            dir.files(under: "cat/archives").filter { $0.hasPrefix("Icons-2") }
                == ["Icons-2.tar", "Icons-2~phone.tar", "Icons-2~tablet.tar"])
        #expect(
            try zinc("clone_bundle", "--catalog", "cat", "--name", "Icons", "--version", "2", "--flavor", "phone", "--dest", "out")
                == "Cloned 'Icons' version 2 (2 files) to out/com.mindsnacks.french.Icons-2~phone\n")

        #expect(try zinc("delete_flavorspec", "--catalog", "cat", "--name", "copy") == "Deleted flavorspec 'copy'\n")
        #expect(try zinc("list_flavorspecs", "--catalog", "cat") == "devices\n")
        #expect(!dir.exists("cat/config/flavorspecs/copy.json"))
    }

    @Test func refusesBadFlavorspecs() throws {
        try dir.write("specs/bad.json", #"{"phone": ["*.png"]}"#)
        try zinc.expectFailure(
            ["update_flavorspec", "--catalog", "cat", "--path", "specs/bad.json"],
            message: "'specs/bad.json' is not a valid Zinc file: not a valid flavorspec: "
                + "flavor 'phone': rule '*.png' does not start with '+ ' or '- '")
        try dir.write("specs/list.json", #"[["+ *"]]"#)
        try zinc.expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--flavors", "specs/list.json"],
            message: "'specs/list.json' is not a valid Zinc file: not a valid flavorspec: "
                + "expected an object of flavor name -> list of rules")
        try zinc.expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--flavors", "devices"],
            message: "no flavorspec file 'devices' and no flavorspec named 'devices' stored in catalog '\(dir.at("cat"))'")
        try dir.write("specs/ok.json", #"{"phone": ["+ *"]}"#)
        try zinc.expectFailure(
            ["update_flavorspec", "--catalog", "cat", "--path", "specs/ok.json", "--name", "a~b"],
            message: "invalid flavor name 'a~b': it contains '~' (a name may hold any character but slashes, '~' and control characters)")
        try zinc.expectFailure(
            ["delete_flavorspec", "--catalog", "cat", "--name", "devices"],
            message: "no flavorspec named 'devices' stored in catalog '\(dir.at("cat"))'")
        #expect(!dir.exists("cat/config"))
    }

    @Test func everyNewCommandHasHelp() throws {
        for command in [
            "list", "list_bundle", "clone_bundle", "dump_index", "dump_manifest",
            "update_flavorspec", "list_flavorspecs", "delete_flavorspec",
        ] {
            #expect(try zinc(command, "--help").contains("USAGE: zinc \(command)"))
        }
    }
}
