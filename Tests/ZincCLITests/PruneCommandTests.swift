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
        try zincSucceeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"], in: dir.path)
        // Archives of every version, as these tests look at unnamed versions' archives.
        try zincSucceeds(["update_archive_policy", "--catalog", "cat", "--keep", "all"], in: dir.path)
        try dir.write("src/same.bin", SampleContent.noise(20_000, seed: 1))
        for version in 1...6 {
            try dir.write("src/changing.txt", SampleContent.text(3000 + version, word: "v\(version)"))
            try zincSucceeds(["update_bundle", "--catalog", "cat", "--name", "A", "--source", "src"], in: dir.path)
            if version <= 2 { try zincSucceeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"], in: dir.path) }
        }
        try zincSucceeds(["update_distro", "--catalog", "cat", "--id", "A", "--name", "master", "--version", "1"], in: dir.path)
        try zincSucceeds(["update_distro", "--catalog", "cat", "--id", "A", "--name", "master", "--version", "2"], in: dir.path)
    }

    private func versions(_ bundle: String) throws -> String {
        try zincSucceeds(["list", "--catalog", "cat"], in: dir.path).split(separator: "\n").first { $0.hasPrefix(bundle + " ") }
            .map(String.init) ?? ""
    }

    @Test func dryRunSaysWhatWouldGoAndChangesNothing() throws {
        let before = dir.files(under: "cat")
        let out = try zincSucceeds(["prune", "--catalog", "cat", "--keep-last", "2", "--dry-run"], in: dir.path)
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
                try zincSucceeds(
                    [
                        "prune", "--catalog", "cat", "--keep-last", "2", "--dry-run",
                        "--json",
                    ], in: dir.path
                ).utf8))
        #expect(json.objectValue?["would_free"]?.objectValue?["bytes"]?.intValue == Int64(bytes))
        #expect(json.objectValue?["bundles"]?.arrayValue?.first?.objectValue?["deleted_versions"] == .array([.int(3), .int(4)]))
    }

    @Test func deletesThenCleansAfterTheGracePeriod() throws {
        let out = try zincSucceeds(["prune", "--catalog", "cat", "--bundle", "A", "--keep-last", "1", "--grace", "0"], in: dir.path)
        #expect(out.hasPrefix("Deleted versions 3, 4, 5 of 'A' (kept 1, 2, which distributions name)\nRemoved 21 files ("), "\(out)")
        #expect(try versions("A") == "A [1=(_master), 2=(master), 6]")
        #expect(try versions("B") == "B [1, 2]")
        #expect(!dir.exists("cat/archives/A-3.tar") && !dir.exists("cat/manifests/A-5.json.gz"))
        try zincSucceeds(["verify", "--catalog", "cat"], in: dir.path)

        // With the default grace the files wait for clients holding the old index.
        let waiting = try zincSucceeds(["prune", "--catalog", "cat", "--keep-last", "1"], in: dir.path)
        #expect(
            waiting.hasPrefix(
                "'A': nothing to delete (kept 1, 2, which distributions name)\nDeleted version 1 of 'B'\n"
                    + "Removed 0 files (0 B)\nKept 6 files ("), "\(waiting)")
        #expect(dir.exists("cat/manifests/B-1.json"))
    }

    @Test func refusesToKeepNothingAndUnknownBundles() throws {
        let zero = try ZincBinary.run(["prune", "--catalog", "cat", "--keep-last", "0"], in: dir.path)
        #expect(zero.status == 64)
        #expect(zero.stderr.contains("--keep-last must be 1 or more, not 0"))
        let unknown = try ZincBinary.run(["prune", "--catalog", "cat", "--bundle", "Nope", "--keep-last", "1"], in: dir.path)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "zinc: error: no bundle 'Nope' in the catalog\n", "\(unknown.stderr)")
    }

    private static func human(_ bytes: Int) -> String {
        bytes < 1000 ? "\(bytes) B" : String(format: "%.\(bytes < 10_000 ? 2 : bytes < 100_000 ? 1 : 0)f kB", Double(bytes) / 1000)
    }
}
