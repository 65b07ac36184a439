import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A sync that runs out of disk (a small tmpfs holds the repo): a clear error with the
/// code an app branches on, the previous version still in place and untouched, and
/// the next sync, given room, finishes the update. Needs the right to mount a tmpfs
/// (root, as in CI); skipped elsewhere.
@Suite(.enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root")) struct DiskFullTests {
    @Test func aFullDiskFailsClearlyAndTheNextSyncResumes() async throws {
        let fixture = try ClientFixture()
        let disk = fixture.dir.at("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(Tmpfs.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]))
        defer { Tmpfs.run("/bin/umount", ["-l", disk]) }
        let repo = try Repo.initialize(at: disk + "/repo")
        _ = try await repo.track(url: fixture.server.url, bundle: "B", options: fixture.options())
        #expect(try await repo.sync(options: fixture.options()).bundles.first?.outcome == .updated)
        let version1 = disk + "/repo/bundles/\(ClientFixture.catalogID).B-1"
        let files = try fixture.dir.files(under: "disk/repo/bundles/\(ClientFixture.catalogID).B-1").map {
            ($0, try fixture.dir.read("disk/repo/bundles/\(ClientFixture.catalogID).B-1/" + $0))
        }

        // Version 2 adds 3 MB: more than the disk holds.
        try fixture.dir.write("src/video.bin", SampleContent.noise(3_000_000, seed: 42))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(2)).run()
        let full = try await repo.sync(options: fixture.options(.objects))
        let failed = try #require(full.bundles.first)
        #expect(failed.outcome == .failed && failed.failure?.code == .diskFull, "\(failed.line)")
        #expect(failed.line.contains("No space left on device"), "\(failed.line)")
        #expect(try repo.loadState().bundles.first?.version == 1)
        for (path, bytes) in files { #expect(try Array(Data(contentsOf: URL(fileURLWithPath: version1 + "/" + path))) == bytes) }
        #expect(!FileManager.default.fileExists(atPath: disk + "/repo/bundles/\(ClientFixture.catalogID).B-2"))

        // Given room, the next sync finishes the update.
        #expect(Tmpfs.run("/bin/mount", ["-o", "remount,size=16m", disk]))
        let resumed = try await repo.sync(options: fixture.options(.objects))
        #expect(resumed.bundles.first?.outcome == .updated, "\(resumed.bundles.first?.line ?? "")")
        #expect(try repo.loadState().bundles.first?.version == 2)
        #expect(try fixture.dir.read("disk/repo/bundles/\(ClientFixture.catalogID).B-2/video.bin") == fixture.dir.read("src/video.bin"))
    }
}

/// Mounting a small tmpfs, where the process may.
enum Tmpfs {
    static let canMount: Bool = {
        guard let dir = try? TemporaryDirectory() else { return false }
        let point = dir.at("probe")
        try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", point]) else { return false }
        return run("/bin/umount", [point])
    }()

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
