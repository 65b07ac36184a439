import Foundation
import Testing
import ZincTestSupport

/// `zinc sync` from a host that ignores `Range`: the update ends with the exact files,
/// and says once that large files come whole from that host.
@Suite struct RangeHostSyncTests {
    @Test func aHostThatIgnoresRangeIsNamedOnce() throws {
        let dir = try TemporaryDirectory()
        var pack = SampleContent.noise(3 << 20, seed: 7)
        try dir.write("src/pack.bin", pack)
        try dir.write("src/readme.txt", "version 1")
        try dir.zinc(["create_catalog", "--id", "com.example.hosts", "--dest", "cat"])
        func publish(_ version: Int) throws {
            try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
            try dir.zinc(
                ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "\(version)"])
        }
        try publish(1)
        let server = try HostileHTTPServer(serving: dir.at("cat"), keepAlive: true, rangeHost: .ignoresRange)
        defer { server.stop() }
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        try dir.zinc(["sync", "--repo", "repo"])

        for offset in [500_000, 2_500_000] { pack[offset] ^= 0xFF }
        try dir.write("src/pack.bin", pack)
        try dir.write("src/readme.txt", "version 2")
        try publish(2)
        let output = try dir.zinc(["sync", "--repo", "repo"])
        let note = "com.example.hosts: \(server.url) ignores Range: large files are fetched whole from it"
        #expect(output.split(separator: "\n").filter { $0 == note }.count == 1, "\(output)")
        #expect(output.contains("com.example.hosts.B: 1 -> 2 ("), "\(output)")
        #expect(try dir.read("repo/bundles/com.example.hosts.B-2/pack.bin") == pack)
        #expect(try dir.read("repo/bundles/com.example.hosts.B-2/readme.txt") == Array("version 2".utf8))
    }
}
