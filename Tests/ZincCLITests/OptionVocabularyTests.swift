import Foundation
import Testing
import ZincTestSupport

/// One vocabulary on every command: --catalog, --bundle, --distro, --version, beside
/// the talk's --name and --id, which keep their meaning (update_bundle --name is the
/// bundle; update_distro --id is the bundle and --name the distro).
@Suite struct OptionVocabularyTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/a.txt", SampleContent.text(1000))
        try dir.write("src/b.txt", SampleContent.text(1200, word: "b"))
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
    }

    private var zinc: ZincRunner { ZincRunner(in: dir) }

    @Test func everyCommandTakesTheModernNames() throws {
        #expect(
            try zinc("update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src").hasPrefix(
                "Created bundle 'B' version 1 (new bundle)\n"))
        try dir.write("src/c.txt", SampleContent.text(900, word: "c"))
        #expect(try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src").hasPrefix("Created bundle 'B' version 2\n"))
        #expect(
            try zinc("update_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--version", "1")
                == "Created distribution 'master' for 'B-v1'\n")
        #expect(
            try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2")
                == "Updated distribution 'master' for 'B-v2' (was v1)\n")
        #expect(
            try zinc("list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "@master")
                == zinc("list_bundle", "--catalog", "cat", "--name", "B", "--version", "2"))
        #expect(
            try zinc("dump_manifest", "--catalog", "cat", "--bundle", "B", "--version", "1")
                == zinc("dump_manifest", "--catalog", "cat", "--name", "B", "--version", "1"))
        #expect(
            try zinc("clone_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1", "--dest", "out")
                .hasPrefix("Cloned 'B' version 1 (2 files)"))
        #expect(
            try zinc("delete_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master")
                == "Deleted distribution 'master' of 'B' (it pointed at version 2)\n")
        #expect(
            try zinc("delete_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1", "--dry-run")
                .hasSuffix("Would delete version 1 of 'B'\n"))
        #expect(
            try zinc("verify", "--catalog", "cat", "--bundle", "B", "--version", "latest")
                == "Verified 1 bundle, 1 version, 3 objects, 1 archive: no problems\n")
    }

    @Test func theCatalogComesFromTheEnvironment() throws {
        #expect(try zinc(["list"], environment: ["ZINC_CATALOG": "cat"]) == "")
    }
}
