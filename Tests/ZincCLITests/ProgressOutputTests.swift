import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The progress bar: drawn on a terminal, never into pipes or logs, silenced by --quiet.
@Suite struct ProgressOutputTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        // Small files are stored while they are hashed; the large one in the storing phase.
        for i in 0..<49 { try dir.write("src/file\(i).bin", SampleContent.noise(10_000, seed: UInt64(i))) }
        try dir.write("src/large.bin", SampleContent.noise(1_500_000, seed: 49))
        try dir.zinc.succeeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
    }

    @Test func drawsOnATerminalAndEndsItsLine() throws {
        let update = try ZincBinary.runOnTerminal(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"], in: dir.path)
        #expect(update.status == 0)
        #expect(update.terminal.contains("\rHashing  [####################]  50/50 files  1.99 MB/1.99 MB  "))
        #expect(update.terminal.contains("\rStoring  [####################]  1/1 files  1.50 MB/1.50 MB  "))
        #expect(update.terminal.contains("  in 0:00\u{1B}[K\r\nCreated bundle 'B' version 1 (new bundle)\r\n"))

        let clone = try ZincBinary.runOnTerminal(
            [
                "clone_bundle", "--catalog", "cat", "--name", "B", "--version", "1",
                "--dest", "out",
            ], in: dir.path)
        #expect(clone.status == 0)
        #expect(clone.terminal.contains("\rCloning  [####################]  50/50 files  1.99 MB/1.99 MB  "))
        #expect(clone.terminal.hasSuffix("\r\nCloned 'B' version 1 (50 files) to out/com.example.app.B-1\r\n"))
    }

    /// Files the stat cache vouches for are not read, so they add no bytes: the bytes
    /// and the rate are what was really read.
    @Test func countsOnlyTheBytesItReads() throws {
        // The stat cache vouches only for timestamps older than its racy margin (50 ms)
        // at the scan's start; on a quiet machine the import starts sooner after `init`
        // wrote the sources, and would rightly hash them all again the second time.
        usleep(100_000)
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
        try dir.write("src/file0.bin", SampleContent.noise(12_345, seed: 100))
        let update = try ZincBinary.runOnTerminal(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"], in: dir.path)
        #expect(update.terminal.contains("\rHashing  [####################]  50/50 files  12.3 kB/12.3 kB  "), "\(update.terminal)")
    }

    /// On a narrow terminal the line drops parts rather than wrapping.
    @Test func fitsTheTerminalsWidth() throws {
        let update = try ZincBinary.runOnTerminal(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            in: dir.path, columns: 40)
        // "\r\n" is one Character: make every line end a lone "\r" before splitting.
        let lines = update.terminal.replacingOccurrences(of: "\r\n", with: "\r").split(separator: "\r")
            .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
            .filter { $0.hasPrefix("Hashing") || $0.hasPrefix("Storing") }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.count < 40 }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Hashing  50/50 files  in 0:00") }, "\(lines)")
    }

    /// A sync shows, per bundle, the objects and bytes it downloads.
    @Test func syncShowsItsDownloads() throws {
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
        try dir.zinc.succeeds(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1"])
        try dir.zinc.succeeds(["repo_init", "--repo", "repo"])
        try dir.zinc.succeeds(["track", "--repo", "repo", "--catalog", "cat", "--bundle", "B"])
        let sync = try ZincBinary.runOnTerminal(["sync", "--repo", "repo"], in: dir.path)
        #expect(sync.status == 0)
        // The archive's bytes; on 80 columns the bar makes way for the rest. The requests:
        // the rollout file (missing) and the archive.
        #expect(
            sync.terminal.contains(
                "\rSyncing com.example.app.B-1  50/50 files  2.03 MB/2.03 MB  in 0:00\u{1B}[K\r\n"
                    + "com.example.app.B: none -> 1 (archive: 50 objects missing, 50 from the archive, "
                    + "0 fetched singly); 2.03 MB in 3 requests, "), "\(sync.terminal)")
        let quiet = try ZincBinary.runOnTerminal(["sync", "--repo", "repo", "--quiet"], in: dir.path)
        #expect(!quiet.terminal.contains("Syncing"))
    }

    @Test func staysSilentWithQuietOrWhenStdoutIsNotATerminal() throws {
        let quiet = try ZincBinary.runOnTerminal(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"],
            in: dir.path)
        #expect(quiet.terminal.hasPrefix("Created bundle 'B' version 1 (new bundle)\r\n"))
        let piped = try ZincBinary.runOnTerminal(
            [
                "clone_bundle", "--catalog", "cat", "--name", "B", "--version", "1",
                "--dest", "out",
            ], in: dir.path, stdoutOnTerminal: false)
        #expect(piped.terminal == "")
        #expect(piped.stdout == "Cloned 'B' version 1 (50 files) to out/com.example.app.B-1\n")
    }
}
