import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The 2012 talk's Acts I and III, typed as the talk types them.
@Suite struct WalkthroughTests {
    @Test func theTalksWalkthroughWorksVerbatim() throws {
        let dir = try TemporaryDirectory()
        let source = try SampleContent.basicAdjectives(in: dir, at: "French/BasicAdjectives")
        /// A line as the talk types it.
        func zinc(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            try ZincRunner(in: dir, silentStderr: false)(line.split(separator: " ").map(String.init), sourceLocation: sourceLocation)
        }
        // The talk creates with file:///abs and updates with file://relative: both name the same folder here.
        _ = try zinc("create_catalog --id com.mindsnacks.french --dest file://\(dir.at("french_catalog"))")
        #expect(
            try zinc("update_bundle --catalog file://french_catalog --name BasicAdjectives --source \(source)").hasPrefix(
                "Created bundle 'BasicAdjectives' version 1 (new bundle)\n"))
        #expect(
            try zinc("update_distro --catalog file://french_catalog --id BasicAdjectives --name master --version 1")
                == "Created distribution 'master' for 'BasicAdjectives-v1'\n")

        try dir.write("French/BasicAdjectives/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        #expect(
            try zinc("update_bundle --catalog file:///\(dir.at("french_catalog").dropFirst()) --id BasicAdjectives --source \(source)")
                .hasPrefix("Created bundle 'BasicAdjectives' version 2\n"))
        #expect(
            try zinc("update_distro --catalog file://french_catalog --id BasicAdjectives --name test --version 2")
                == "Created distribution 'test' for 'BasicAdjectives-v2'\n")
        #expect(
            try zinc("update_distro --catalog file://french_catalog --id BasicAdjectives --name master --version 2")
                == "Updated distribution 'master' for 'BasicAdjectives-v2' (was v1)\n")

        let index = try CatalogIndex.parse(dir.read("french_catalog/catalog.json"), path: "catalog.json")
        #expect(
            index.bundles["BasicAdjectives"]
                == .init(versions: [1, 2], distributions: ["master": 2, "_master": 1, "test": 2], nextVersion: 2))
        for name in ["index.json"] { #expect(try dir.read("french_catalog/" + name) == dir.read("french_catalog/catalog.json")) }

        // Every object the manifests name is stored in its recorded format and size, with the right content.
        for version in [1, 2] {
            let manifest = try Manifest.parse(dir.read("french_catalog/manifests/BasicAdjectives-\(version).json"), path: "m")
            #expect(manifest.files.count == 3 + (version == 2 ? 1 : 0))
            let tar = try #require(TarListing.members(dir.read("french_catalog/archives/BasicAdjectives-\(version).tar")))
            for (path, entry) in manifest.files {
                let stored = try dir.read("french_catalog/" + entry.object.preferredPath)
                #expect(Int64(stored.count) == entry.object.preferredSize)
                let content = entry.object.preferredFormat == .gz ? try GzipDecompressor.decompress(stored) : stored
                #expect(content == (try dir.read("French/BasicAdjectives/" + path)))
                #expect(tar.first { $0.name == entry.object.fileName }?.data == stored)
            }
        }
    }

    @Test func promotesTestToMasterWithAtOther() throws {
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc.succeeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        try dir.zinc.succeeds(["update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "latest"])
        try dir.zinc.expect(
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "@test"],
            stdout: "Created distribution 'master' for 'B-v1'\n")
    }

    @Test func usesTheEmbeddedCatalogsFolderByDefault() throws {
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc.succeeds(["create_catalog", "--id", "com.example.app"])
        #expect(dir.exists("catalogs/com.example.app/catalog.json"))
        let updated = try dir.zinc(["update_bundle", "--catalog", "com.example.app", "--name", "B", "--source", "src"])
        #expect(updated.hasPrefix("Created bundle 'B' version 1 (new bundle)\n"))
        try dir.zinc.expect(
            ["update_bundle", "--catalog", "com.example.app", "--name", "B", "--source", "src"],
            stdout: "Bundle 'B' unchanged at version 1\n")
        let forced = try dir.zinc(["update_bundle", "--catalog", "com.example.app", "--name", "B", "--source", "src", "--force"])
        #expect(forced.hasPrefix("Created bundle 'B' version 2\n"))
    }

    @Test func everyCommandHasHelp() throws {
        let dir = try TemporaryDirectory()
        for command in ["create_catalog", "update_bundle", "update_distro"] {
            let result = try dir.zinc.succeeds([command, "--help"])
            #expect(result.stdout.contains("USAGE: zinc \(command)"))
        }
    }
}
