import Foundation
import Testing
import ZincTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `zinc sync --export-downloads` and `--apply-downloads`, with the downloads made by
/// `curl` in a process of its own, as a system service makes them while the app is
/// suspended or gone: the app's process is killed once it has written the plan, and
/// a new one takes the files. The tree comes out exact, and no object byte crosses the
/// network twice.
@Suite struct DownloadPlanTests {
    /// A catalog of several files at version 1, served with its request log, and a repo tracking it.
    struct Setup {
        let dir: TemporaryDirectory
        let server: HostileHTTPServer
        var files = [String: [UInt8]]()

        init() throws {
            dir = try TemporaryDirectory()
            for (i, size) in [300_000, 70_000, 9_000, 1_000, 40].enumerated() {
                let bytes = SampleContent.noise(size, seed: UInt64(i + 1))
                files["file\(i).bin"] = bytes
                try dir.write("src/file\(i).bin", bytes)
            }
            files["same.bin"] = files["file2.bin"]
            try dir.write("src/same.bin", files["file2.bin"]!)
            try makeCatalogWithMaster(in: dir, bundle: "B")
            server = try HostileHTTPServer(serving: dir.at("cat"), keepAlive: true)
            try dir.zinc(["repo_init", "--repo", "repo"])
            try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        }

        /// The plan the app's process writes before it is killed.
        func export(_ extra: [String] = []) throws -> [[String: Any]] {
            let process = try ZincBinary.start(["sync", "--repo", "repo", "--export-downloads", "plan.json"] + extra, in: dir.path)
            // Written whole or not at all: the app goes as soon as the plan is there.
            while process.isRunning && !FileManager.default.fileExists(atPath: dir.at("plan.json")) { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let plan = try JSONSerialization.jsonObject(with: Data(dir.read("plan.json"))) as? [String: Any]
            return try #require(plan?["requests"] as? [[String: Any]])
        }

        /// Each request made by `curl`, as another downloader makes it; returns the bytes asked for.
        func download(_ requests: [[String: Any]]) throws -> Int64 {
            var bytes: Int64 = 0
            for request in requests {
                let url = try #require(request["url"] as? String)
                let destination = dir.at("repo/" + (try #require(request["destination"] as? String)))
                var arguments = ["-sf", url]
                if let range = request["range"] as? [Int64] {
                    arguments += ["-r", "\(range[0])-\(range[1])"]
                    bytes += range[1] - range[0] + 1
                    // The answer goes after the bytes the file holds already.
                    #expect(Self.size(destination) == range[0])
                } else {
                    bytes += try #require(request["size"] as? Int64)
                }
                let curl = Process()
                curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                curl.arguments = arguments
                if !FileManager.default.fileExists(atPath: destination) {
                    #expect(FileManager.default.createFile(atPath: destination, contents: nil), "\(destination)")
                }
                let output = try FileHandle(forWritingTo: URL(fileURLWithPath: destination))
                try output.seekToEnd()
                curl.standardOutput = output
                try curl.run()
                curl.waitUntilExit()
                try output.close()
                #expect(curl.terminationStatus == 0, "curl \(arguments)")
            }
            return bytes
        }

        /// The bytes of objects and archives the server sent to the requests after the first `from`.
        func objectBytes(from: Int) -> Int64 {
            server.requests.dropFirst(from).reduce(0) { total, request in
                guard request.path.hasPrefix("objects/") || request.path.hasPrefix("archives/") else { return total }
                let whole = Self.size(dir.at("cat/" + request.path))
                guard let range = request.range?.dropFirst("bytes=".count).split(separator: "-"), range.count == 2,
                    let first = Int64(range[0]), let last = Int64(range[1])
                else { return total + whole }
                return total + min(last, whole - 1) - first + 1
            }
        }

        /// The paths of objects and archives requested after the first `from`.
        func objectPaths(from: Int) -> [String] {
            server.requests.dropFirst(from).map(\.path).filter { $0.hasPrefix("objects/") || $0.hasPrefix("archives/") }
        }

        /// The checked-out version holds exactly the bundle's files.
        func expectExactTree() throws {
            let folder = dir.at("repo/bundles/com.example.app.B-1")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files.keys.sorted())
            for (name, bytes) in files { #expect(try dir.read("repo/bundles/com.example.app.B-1/" + name) == bytes, "\(name)") }
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.at("repo/tmp")).filter { $0.hasSuffix(".part") }
            #expect(left.isEmpty, "\(left)")
        }

        static func size(_ path: String) -> Int64 {
            var status = stat()
            return stat(path, &status) == 0 ? Int64(status.st_size) : 0
        }
    }

    @Test func anArchiveFrontDownloadedByCurlIsTakenWithNoObjectFetchedAgain() throws {
        let setup = try Setup()
        let requests = try setup.export(["--strategy", "archive"])
        #expect(setup.objectBytes(from: 0) == 0, "the export fetched object bytes")
        #expect(requests.count == 1)
        #expect((requests.first?["url"] as? String)?.contains("/archives/") == true, "\(requests)")
        let logged = setup.server.requests.count
        let planned = try setup.download(requests)
        #expect(setup.objectBytes(from: logged) == planned)
        let applied = setup.server.requests.count
        try setup.dir.zinc(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(setup.objectPaths(from: applied).isEmpty)
        try setup.expectExactTree()
    }

    @Test func aMissingAndACorruptDownloadAreAllThatIsFetchedAgain() throws {
        let setup = try Setup()
        let requests = try setup.export(["--strategy", "objects"])
        // Five distinct objects, one request each.
        #expect(requests.count == 5, "\(requests)")
        #expect(setup.objectBytes(from: 0) == 0)
        _ = try setup.download(requests)
        let destinations = requests.compactMap { $0["destination"] as? String }.sorted()
        // One download lost, one cut short and one with a wrong byte.
        try FileManager.default.removeItem(atPath: setup.dir.at("repo/" + destinations[0]))
        var corrupt = try setup.dir.read("repo/" + destinations[1])
        corrupt[corrupt.count / 2] ^= 0xFF
        try setup.dir.write("repo/" + destinations[1], corrupt)
        let short = try setup.dir.read("repo/" + destinations[2])
        try setup.dir.write("repo/" + destinations[2], Array(short.dropLast(1)))
        let applied = setup.server.requests.count
        try setup.dir.zinc(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        let refetched = setup.objectPaths(from: applied).map { $0.split(separator: "/").last.map(String.init) ?? "" }
        let names = destinations.prefix(3).map { $0.dropFirst("tmp/".count).dropLast(".part".count) }
        #expect(Set(refetched) == Set(names.map(String.init)), "\(refetched)")
        // The lost and the wrong one whole; the short one is continued: its last byte.
        let sizes = Dictionary(uniqueKeysWithValues: requests.map { ($0["destination"] as? String ?? "", $0["size"] as? Int64 ?? 0) })
        #expect(setup.objectBytes(from: applied) == sizes[destinations[0]]! + sizes[destinations[1]]! + 1)
        try setup.expectExactTree()
    }

    /// The catalog lost the archive after the plan was made (a `clean`): its request
    /// fails, and the apply fetches the objects by themselves.
    @Test func aRequestThatFailsIsPlannedAgainByTheApply() throws {
        let setup = try Setup()
        let requests = try setup.export(["--strategy", "archive"])
        let archive = try #require((requests.first?["url"] as? String)?.split(separator: "/").last)
        setup.server.override("archives/" + archive) { _ in HostileHTTPServer.response(status: "404 Not Found", body: []) }
        // The downloader's request got the 404 and left no file.
        let applied = setup.server.requests.count
        try setup.dir.zinc(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(setup.objectPaths(from: applied).filter { $0.hasPrefix("objects/") }.count == 5)
        try setup.expectExactTree()
    }

    @Test func aPlanFileThatIsNotOneIsNamed() throws {
        let setup = try Setup()
        try setup.dir.write("plan.json", "{}")
        let result = try setup.dir.zinc.run(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("plan.json: not a plan of downloads"), "\(result.stderr)")
    }
}
