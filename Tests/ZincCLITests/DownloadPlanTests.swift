import Foundation
import Testing
import Zinc
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

        init(sizes: [Int] = [300_000, 70_000, 9_000, 1_000, 40], rangeHost: HostileHTTPServer.RangeHost = .multipart) throws {
            dir = try TemporaryDirectory()
            for (i, size) in sizes.enumerated() {
                let bytes = SampleContent.noise(size, seed: UInt64(i + 1))
                files["file\(i).bin"] = bytes
                try dir.write("src/file\(i).bin", bytes)
            }
            if let third = files["file2.bin"] {
                files["same.bin"] = third
                try dir.write("src/same.bin", third)
            }
            try makeCatalogWithMaster(in: dir, bundle: "B")
            server = try HostileHTTPServer(serving: dir.at("cat"), keepAlive: true, rangeHost: rangeHost)
            try dir.zinc(["repo_init", "--repo", "repo"])
            try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        }

        /// A 6 MiB file and a small one, synced at version 1; version 2, on master, has two
        /// bytes of the large file changed, 4 MB apart.
        static func largeFileChanged(rangeHost: HostileHTTPServer.RangeHost = .multipart) throws -> Setup {
            var setup = try Setup(sizes: [6 << 20, 1_000], rangeHost: rangeHost)
            try setup.dir.zinc(["sync", "--repo", "repo", "--quiet"])
            var pack = setup.files["file0.bin"]!
            pack[1_000_000] ^= 1
            pack[5_000_000] ^= 1
            setup.files["file0.bin"] = pack
            try setup.dir.write("src/file0.bin", pack)
            try setup.dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
            try setup.dir.zinc(["update_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--version", "2"])
            return setup
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
                // The answer goes after the bytes the file holds already.
                #expect(Self.size(destination) == request["offset"] as? Int64, "\(request)")
                if let range = request["range"] as? [Int64] {
                    arguments += ["-r", "\(range[0])-\(range[1])"]
                    bytes += range[1] - range[0] + 1
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
                guard let ranges = request.range?.dropFirst("bytes=".count).split(separator: ",") else { return total + whole }
                var bytes: Int64 = 0
                for range in ranges {
                    let bounds = range.split(separator: "-").compactMap { Int64($0) }
                    guard bounds.count == 2 else {
                        Issue.record("a range the test cannot read: \(range)")
                        continue
                    }
                    bytes += min(bounds[1], whole - 1) - bounds[0] + 1
                }
                return total + bytes
            }
        }

        /// The paths of objects and archives requested after the first `from`.
        func objectPaths(from: Int) -> [String] {
            server.requests.dropFirst(from).map(\.path).filter { $0.hasPrefix("objects/") || $0.hasPrefix("archives/") }
        }

        /// The checked-out version holds exactly the bundle's files, and the downloads left nothing.
        func expectExactTree(version: Int = 1) throws {
            let folder = "repo/bundles/com.example.app.B-\(version)"
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.at(folder)).sorted() == files.keys.sorted())
            for (name, bytes) in files { #expect(try dir.read(folder + "/" + name) == bytes, "\(name)") }
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.at("repo/tmp")).filter {
                $0.hasSuffix(".part") || $0.hasSuffix(".range")
            }
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

    /// Two bytes changed far apart in a large file the repo holds: the plan asks for the
    /// ranges of the two chunks alone, each into a file of its own, and the apply builds
    /// the file from them and the chunks it holds, with no request of its own.
    @Test func aLargeFileChangedIsBroughtAsTheRangesOfItsChunks() throws {
        let setup = try Setup.largeFileChanged()
        let logged = setup.server.requests.count
        let requests = try setup.export()
        #expect(setup.objectBytes(from: logged) == 0, "the export fetched object bytes")
        #expect(requests.count == 2, "\(requests)")
        for request in requests {
            #expect((request["destination"] as? String)?.hasSuffix(".range") == true && request["range"] != nil, "\(request)")
        }
        let asked = setup.server.requests.count
        let planned = try setup.download(requests)
        #expect(planned <= 2 * Int64(ContentChunker.maximumSize), "two chunks, not 6 MiB: \(planned)")
        #expect(setup.objectBytes(from: asked) == planned)
        let applied = setup.server.requests.count
        try setup.dir.zinc(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(setup.objectPaths(from: applied).isEmpty)
        try setup.expectExactTree(version: 2)
    }

    /// One of the ranges lost and the other cut short: the apply asks for the lost one and
    /// for the rest of the other, no byte of either twice.
    @Test func aRangeLostOrCutShortIsAllTheApplyAsksFor() throws {
        let setup = try Setup.largeFileChanged()
        let requests = try setup.export()
        #expect(requests.count == 2, "\(requests)")
        let planned = try setup.download(requests)
        let destinations = requests.compactMap { $0["destination"] as? String }
        try FileManager.default.removeItem(atPath: setup.dir.at("repo/" + destinations[0]))
        let cut = try setup.dir.read("repo/" + destinations[1])
        try setup.dir.write("repo/" + destinations[1], Array(cut.prefix(cut.count / 2)))
        let kept = Int64(cut.count / 2)
        let applied = setup.server.requests.count
        try setup.dir.zinc(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(setup.objectBytes(from: applied) == planned - kept)
        try setup.expectExactTree(version: 2)
    }

    /// A host that ignores `Range` sent the whole object to each range's request: the
    /// apply builds the object from what arrived, with no request of its own.
    @Test func aWholeObjectSentForARangeIsTakenAsIt() throws {
        let setup = try Setup.largeFileChanged(rangeHost: .ignoresRange)
        let requests = try setup.export()
        #expect(requests.count == 2, "\(requests)")
        _ = try setup.download(requests)
        let applied = setup.server.requests.count
        try setup.dir.zinc(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(setup.objectPaths(from: applied).isEmpty)
        try setup.expectExactTree(version: 2)
    }

    @Test func aPlanFileThatIsNotOneIsNamed() throws {
        let setup = try Setup()
        try setup.dir.write("plan.json", "{}")
        let result = try setup.dir.zinc.run(["sync", "--repo", "repo", "--apply-downloads", "plan.json"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("plan.json: not a plan of downloads"), "\(result.stderr)")
    }
}
