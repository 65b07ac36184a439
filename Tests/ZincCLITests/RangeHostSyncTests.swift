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
        try zincSucceeds(["create_catalog", "--id", "com.example.hosts", "--dest", "cat"], in: dir.path)
        func publish(_ version: Int) throws {
            try zincSucceeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"], in: dir.path)
            try zincSucceeds(
                ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "\(version)"], in: dir.path)
        }
        try publish(1)
        let server = try HostileHTTPServer(serving: dir.at("cat"), keepAlive: true, rangeHost: .ignoresRange)
        defer { server.stop() }
        try zincSucceeds(["repo_init", "--repo", "repo"], in: dir.path)
        try zincSucceeds(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"], in: dir.path)
        try zincSucceeds(["sync", "--repo", "repo"], in: dir.path)

        for offset in [500_000, 2_500_000] { pack[offset] ^= 0xFF }
        try dir.write("src/pack.bin", pack)
        try dir.write("src/readme.txt", "version 2")
        try publish(2)
        let output = try zincSucceeds(["sync", "--repo", "repo"], in: dir.path)
        let note = "com.example.hosts: \(server.url) ignores Range: large files are fetched whole from it"
        #expect(output.split(separator: "\n").filter { $0 == note }.count == 1, "\(output)")
        #expect(output.contains("com.example.hosts.B: 1 -> 2 ("), "\(output)")
        #expect(try dir.read("repo/bundles/com.example.hosts.B-2/pack.bin") == pack)
        #expect(try dir.read("repo/bundles/com.example.hosts.B-2/readme.txt") == Array("version 2".utf8))
    }
}
