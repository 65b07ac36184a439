import Foundation
import Testing
import ZincTestSupport

/// Ctrl-C during `sync` or `publish` says what state it left and how to go on, then
/// exits 130 as a shell reports a process SIGINT killed.
@Suite struct InterruptNoticeTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        for i in 0..<300 { try dir.write("big/f\(i).bin", SampleContent.noise(200_000, seed: UInt64(500 + i))) }
        try makeCatalogWithMaster(in: dir, bundle: "Big", source: "big")
    }

    func interrupt(_ arguments: [String], once started: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try zincInterrupted(arguments, in: dir.path, once: started, sourceLocation: sourceLocation)
    }

    @Test func syncSaysWhatItLeft() throws {
        try dir.zinc(["repo_init", "--repo", "app"])
        try dir.zinc(["track", "--repo", "app", "--catalog", dir.at("cat"), "--bundle", "Big"])
        let stderr = try interrupt(["sync", "--repo", "app", "--strategy", "objects", "--concurrency", "1"]) {
            dir.files(under: "app").filter { $0.hasPrefix("objects/") }.count >= 5
        }
        #expect(
            stderr.hasSuffix(
                "zinc: interrupted: each bundle is at the version it had, or at its new one where the switch was made; "
                    + "what was downloaded and verified is kept, partial downloads stay in the repo's tmp/, "
                    + "and 'zinc sync --repo app --strategy objects --concurrency 1' resumes without downloading them again\n"),
            "\(stderr)")
        try dir.zinc(["sync", "--repo", "app", "--strategy", "objects", "--concurrency", "1"])
    }

    @Test func publishSaysWhatItLeft() throws {
        let stderr = try interrupt(["publish", "--catalog", "cat", "--to", "out", "--jobs", "1", "--quiet"]) {
            dir.files(under: "out").filter { $0.hasPrefix("objects/") }.count >= 5
        }
        #expect(
            stderr
                == "zinc: interrupted: the destination serves the index it had, or the new one if its upload had begun, "
                + "each with every file it lists; 'zinc publish --catalog cat --to out --jobs 1 --quiet' uploads only what is still missing\n",
            "\(stderr)")
        try dir.zinc(["publish", "--catalog", "cat", "--to", "out", "--quiet"])
        try dir.zinc(["verify", "--catalog", "out", "--quiet"])
    }
}
