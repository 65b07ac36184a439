import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `zinc prune --keep-last N`: deletes what the policy leaves out, never what a
/// distribution names, then cleans; a dry run changes nothing and says what it frees.
@Suite struct PruneCommandTests {
    let dir: TemporaryDirectory

    /// Bundle A at versions 1-6 (one file changing each time), master at 2 (after 1);
    /// bundle B at 1-2.
    init() throws {
        dir = try TemporaryDirectory()
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        // Archives of every version, as these tests look at unnamed versions' archives.
        try dir.zinc(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
        try dir.write("src/same.bin", SampleContent.noise(20_000, seed: 1))
        for version in 1...6 {
            try dir.write("src/changing.txt", SampleContent.text(3000 + version, word: "v\(version)"))
            try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "A", "--source", "src"])
            if version <= 2 { try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"]) }
        }
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "A", "--name", "master", "--version", "1"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "A", "--name", "master", "--version", "2"])
    }

    private func versions(_ bundle: String) throws -> String {
        try dir.zinc(["list", "--catalog", "cat"]).split(separator: "\n").first { $0.hasPrefix(bundle + " ") }
            .map(String.init) ?? ""
    }

    @Test func dryRunSaysWhatWouldGoAndChangesNothing() throws {
        let before = dir.files(under: "cat")
        let out = try dir.zinc(["prune", "--catalog", "cat", "--keep-last", "2", "--dry-run"])
        // A keeps 5, 6 and the versions master and _master name (2, 1): 3 and 4 go.
        let freed = ["A-3", "A-4"].flatMap {
            [
                "archives/\($0).tar", "lmfo/\($0).json", "manifests/\($0).json", "manifests/\($0).json.gz", "sizes/\($0).json.gz",
                "manifest-chunks/\($0).json.gz",
            ]
        }
        // Text compresses, so its objects are stored gzipped.
        let changing = [3, 4].map { v in
            StoredObject.path(sha: SHA1.hash(SampleContent.text(3000 + v, word: "v\(v)")), format: .gz)
        }
        let bytes = try (freed + changing).reduce(0) { $0 + (try dir.read("cat/" + $1).count) }
        #expect(
            out == """
                Would delete versions 3, 4 of 'A' (kept 1, 2, which distributions name)
                'B': nothing to delete
                Would free \(freed.count + changing.count) files (\(Self.human(bytes))), removed by a clean 5 minutes after the deletion

                """, "\(out)")
        #expect(dir.files(under: "cat") == before)

        let json = try JSONValue.parse(
            Array(
                try dir.zinc(
                    [
                        "prune", "--catalog", "cat", "--keep-last", "2", "--dry-run",
                        "--json",
                    ]).utf8))
        #expect(json.objectValue?["would_free"]?.objectValue?["bytes"]?.intValue == Int64(bytes))
        #expect(json.objectValue?["bundles"]?.arrayValue?.first?.objectValue?["deleted_versions"] == .array([.int(3), .int(4)]))
    }

    @Test func deletesThenCleansAfterTheGracePeriod() throws {
        let out = try dir.zinc(["prune", "--catalog", "cat", "--bundle", "A", "--keep-last", "1", "--grace", "0"])
        #expect(out.hasPrefix("Deleted versions 3, 4, 5 of 'A' (kept 1, 2, which distributions name)\nRemoved 21 files ("), "\(out)")
        #expect(try versions("A") == "A [1=(_master), 2=(master), 6]")
        #expect(try versions("B") == "B [1, 2]")
        #expect(!dir.exists("cat/archives/A-3.tar") && !dir.exists("cat/manifests/A-5.json.gz"))
        try dir.zinc(["verify", "--catalog", "cat"])

        // With the default grace the files wait for clients holding the old index.
        let waiting = try dir.zinc(["prune", "--catalog", "cat", "--keep-last", "1"])
        #expect(
            waiting.hasPrefix(
                "'A': nothing to delete (kept 1, 2, which distributions name)\nDeleted version 1 of 'B'\n"
                    + "Removed 0 files (0 B)\nKept 6 files ("), "\(waiting)")
        #expect(dir.exists("cat/manifests/B-1.json"))
    }

    @Test func refusesToKeepNothingAndUnknownBundles() throws {
        let zero = try dir.zinc.run(["prune", "--catalog", "cat", "--keep-last", "0"])
        #expect(zero.status == 64)
        #expect(zero.stderr.contains("--keep-last must be 1 or more, not 0"))
        try dir.zinc.expectFailure(
            ["prune", "--catalog", "cat", "--bundle", "Nope", "--keep-last", "1"], message: "no bundle 'Nope' in the catalog")
    }

    private static func human(_ bytes: Int) -> String {
        bytes < 1000 ? "\(bytes) B" : String(format: "%.\(bytes < 10_000 ? 2 : bytes < 100_000 ? 1 : 0)f kB", Double(bytes) / 1000)
    }
}
