import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `--json` on the commands that print a summary: one document a pipeline can parse,
/// raw numbers, the fields docs/JSON.md lists.
@Suite struct JSONSummaryTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        // Archives of every version, as these tests look at unnamed versions' archives.
        try dir.zinc(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
        for version in 1...3 {
            try dir.write("src/file.txt", SampleContent.text(2000 + version))
            try dir.write("src/other.bin", SampleContent.noise(3000, seed: 1))
            try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        }
    }

    private func json(_ arguments: String...) throws -> JSONValue {
        try JSONValue.parse(Array(dir.zinc(arguments).utf8))
    }

    @Test func distributionsAndDeletions() throws {
        #expect(
            try json("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2", "--json")
                == .object([
                    "bundle": .string("B"), "distro": .string("master"), "version": .int(2), "previous": .null,
                    "changed": .bool(true),
                ]))
        #expect(
            try json("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "3", "--json")
                == .object([
                    "bundle": .string("B"), "distro": .string("master"), "version": .int(3), "previous": .int(2),
                    "changed": .bool(true),
                ]))
        #expect(
            try json("delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1", "--dry-run", "--json")
                == .object([
                    "bundle": .string("B"), "dry_run": .bool(true), "deleted_versions": .array([.int(1)]),
                    "no_version_left": .bool(false),
                    "files": .array(
                        [
                            "manifests/B-1.json", "manifests/B-1.json.gz", "sizes/B-1.json.gz", "lmfo/B-1.json",
                            "manifest-chunks/B-1.json.gz", "archives/B-1.tar",
                        ]
                        .map { .string($0) }),
                ]))
        #expect(
            try json("delete_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--json")
                == .object(["bundle": .string("B"), "distro": .string("master"), "version": .int(3)]))
        try dir.write("spec.json", Array(#"{"small": ["+ *.txt"]}"#.utf8))
        try dir.zinc(["update_flavorspec", "--catalog", "cat", "--path", "spec.json"])
        #expect(
            try json("delete_flavorspec", "--catalog", "cat", "--name", "spec", "--json")
                == .object(["flavorspec": .string("spec"), "deleted": .bool(true)]))
    }

    @Test func cleanReportsFilesAndBytes() throws {
        try dir.zinc(["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"])
        let report = try #require(try json("clean", "--catalog", "cat", "--force", "--grace", "0", "--json").objectValue)
        let files = try #require(report["files"]?.arrayValue)
        let sizes = try files.map { try #require($0.objectValue?["size"]?.intValue) }
        #expect(report["removed"] == .bool(true) && files.count == 7)
        #expect(report["bytes"] == .int(sizes.reduce(0, +)))
        #expect(report["waiting"] == .object(["files": .int(0), "bytes": .int(0), "until": .null, "kinds": .array([])]))
    }
}
