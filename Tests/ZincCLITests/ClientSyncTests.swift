import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The client commands end to end: `zinc serve` on loopback, a repo kept in sync with it.
@Suite struct ClientSyncTests {
    static func syncJSON(_ dir: TemporaryDirectory, _ extra: [String] = []) throws -> [String: Any] {
        let output = try dir.zinc(["sync", "--repo", "repo", "--json"] + extra)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    static func firstBundle(_ report: [String: Any]) throws -> [String: Any] {
        try #require((report["bundles"] as? [[String: Any]])?.first)
    }

    /// Bundle `B` of catalog `cat` (com.example.app) imported from `src` (the talk's
    /// BasicAdjectives files at first) as `version`, which `master` then points at.
    static func publishB(in dir: TemporaryDirectory, version: Int) throws {
        if version == 1 {
            try SampleContent.basicAdjectives(in: dir, at: "src")
            try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        }
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "\(version)"])
    }

    /// Version 1 of B published in `dir`, served, and synced into `dir/repo`: the server
    /// returned, to be kept alive while the test runs.
    static func syncedVersion1(in dir: TemporaryDirectory) throws -> ServeProcess {
        try publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        try dir.zinc(["sync", "--repo", "repo"])
        return server
    }

    /// Whether `folder` holds exactly the files of `source`, byte for byte.
    static func sameFiles(_ dir: TemporaryDirectory, _ source: String, _ folder: String) throws -> Bool {
        let files = dir.files(under: source)
        guard !files.isEmpty, dir.files(under: folder) == files else { return false }
        return try files.allSatisfy { try dir.read(source + "/" + $0) == dir.read(folder + "/" + $0) }
    }

    static func makeCorpus(_ arguments: [String]) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/make-corpus").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// libcurl (about 8 MB resident with its libraries) is loaded by a sync of a repo
    /// with an HTTP source, and never by one whose catalogs are all read from disk: the
    /// dynamic loader's own log (`LD_DEBUG=files`) names every library it loads.
    @Test func onlyASyncFromHTTPLoadsLibcurl() throws {
        let dir = try TemporaryDirectory()
        try Self.publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        for (repo, catalog) in [("local", dir.at("cat")), ("remote", server.url)] {
            try dir.zinc(["repo_init", "--repo", repo])
            try dir.zinc(["track", "--repo", repo, "--catalog", catalog, "--bundle", "B"])
            let sync = try ZincRunner(in: dir, silentStderr: false).succeeds(["sync", "--repo", repo], environment: ["LD_DEBUG": "files"])
            #expect(sync.stderr.contains("file=libcurl") == (repo == "remote"), "\(repo)")
            #expect(try Self.sameFiles(dir, "src", "\(repo)/bundles/com.example.app.B-1"))
        }
    }

    @Test func anUpdateDownloadsLittleMoreThanTheChangedBytes() throws {
        let dir = try TemporaryDirectory()
        try Self.makeCorpus([dir.at("src"), "--files", "200", "--mb", "10", "--seed", "1"])
        try dir.zinc(["create_catalog", "--id", "com.example.corpus", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "Corpus", "--source", "src", "--quiet"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "Corpus", "--name", "master", "--version", "1"])
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "Corpus"])
        let first = try Self.firstBundle(Self.syncJSON(dir))
        #expect(first["outcome"] as? String == "updated" && first["version"] as? Int == 1)
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.corpus.Corpus-1"))

        try Self.makeCorpus([dir.at("src"), "--mutate", "10", "--seed", "2"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "Corpus", "--source", "src", "--quiet"])
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("local 1, remote 1"))
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "Corpus", "--name", "master", "--version", "2"])
        // Priced as on a phone: on loopback, where a round trip costs next to nothing, the
        // measured link may rightly favour the objects one by one.
        let update = try Self.firstBundle(Self.syncJSON(dir, ["--request-cost", "250000"]))
        #expect(update["outcome"] as? String == "updated" && update["version"] as? Int == 2)
        #expect(update["strategy"] as? String == "lmfo")
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.corpus.Corpus-2"))
        // Version 1's folder stays as the spare that the next update turns into its version.
        #expect(dir.exists("repo/bundles/com.example.corpus.Corpus-1"))

        let v1 = try Manifest.parse(dir.read("cat/manifests/Corpus-1.json"), path: "v1")
        let v2 = try Manifest.parse(dir.read("cat/manifests/Corpus-2.json"), path: "v2")
        let old = Set(v1.objects().keys)
        let new = v2.objects().values.filter { !old.contains($0.sha) }
        let bound = Double(new.reduce(0) { $0 + $1.preferredSize + 512 }) * 1.05
        let objectBytes = try #require(update["object_bytes"] as? Int)
        let archiveSize = try #require(FileManager.default.attributesOfItem(atPath: dir.at("cat/archives/Corpus-2.tar"))[.size] as? Int)
        #expect(!new.isEmpty && Double(objectBytes) <= bound, "\(objectBytes) bytes for \(new.count) new objects, bound \(bound)")
        #expect(objectBytes * 5 < archiveSize)
        #expect(update["object_requests"] as? Int == 1)

        let status = try dir.zinc(["status", "--repo", "repo", "--json"])
        #expect(status.contains("\"local_version\": 2") && status.contains("\"remote_version\": 2"))
    }

    /// The talk's Act 4: the client follows master; test gets version 2 first, and the
    /// client updates only when master is promoted.
    @Test func theTalksAct4TracksByDistroPromotesAndUpdates() throws {
        let dir = try TemporaryDirectory()
        let source = try SampleContent.basicAdjectives(in: dir, at: "French/BasicAdjectives")
        try dir.zinc(["create_catalog", "--id", "com.mindsnacks.french", "--dest", "french_catalog"])
        try dir.zinc(["update_bundle", "--catalog", "french_catalog", "--name", "BasicAdjectives", "--source", source])
        try dir.zinc(
            ["update_distro", "--catalog", "french_catalog", "--id", "BasicAdjectives", "--name", "master", "--version", "1"])
        let server = try ServeProcess(catalog: "french_catalog", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        #expect(
            try dir.zinc(
                ["track", "--repo", "repo", "--catalog", server.url, "--bundle", "BasicAdjectives", "--distro", "master"])
                == "Tracking 'BasicAdjectives' of com.mindsnacks.french at distribution 'master'\n")
        #expect(try dir.zinc(["sync", "--repo", "repo"]).hasPrefix("com.mindsnacks.french.BasicAdjectives: none -> 1 ("))
        let v1Folder = "repo/bundles/com.mindsnacks.french.BasicAdjectives-1"
        #expect(try Self.sameFiles(dir, "French/BasicAdjectives", v1Folder))
        let v1Files = try dir.files(under: v1Folder).map { try dir.read(v1Folder + "/" + $0) }

        try dir.write("French/BasicAdjectives/audio/basic-adj-12.caf", SampleContent.text(9000, word: "hackety"))
        try dir.zinc(["update_bundle", "--catalog", "french_catalog", "--id", "BasicAdjectives", "--source", source])
        try dir.zinc(
            ["update_distro", "--catalog", "french_catalog", "--id", "BasicAdjectives", "--name", "test", "--version", "2"])
        #expect(try dir.zinc(["sync", "--repo", "repo"]) == "com.mindsnacks.french.BasicAdjectives: up to date at version 1\n")
        #expect(try dir.files(under: v1Folder).map { try dir.read(v1Folder + "/" + $0) } == v1Files)

        try dir.zinc(
            ["update_distro", "--catalog", "french_catalog", "--id", "BasicAdjectives", "--name", "master", "--version", "@test"])
        #expect(try dir.zinc(["sync", "--repo", "repo"]).hasPrefix("com.mindsnacks.french.BasicAdjectives: 1 -> 2 ("))
        #expect(try Self.sameFiles(dir, "French/BasicAdjectives", "repo/bundles/com.mindsnacks.french.BasicAdjectives-2"))
        // The version left is the spare, unchanged: an app still reading it is not disturbed.
        #expect(try dir.files(under: v1Folder).map { try dir.read(v1Folder + "/" + $0) } == v1Files)
        #expect(
            try dir.zinc(["status", "--repo", "repo"]).hasPrefix(
                "com.mindsnacks.french.BasicAdjectives @master: local 2, remote 2, 4 files"))

        try dir.zinc(["untrack", "--repo", "repo", "--catalog-id", "com.mindsnacks.french", "--bundle", "BasicAdjectives"])
        #expect(dir.files(under: "repo/bundles").isEmpty && dir.files(under: "repo/objects").isEmpty)
    }

    /// The issue's scenario: a synced file made writable and edited, which goes through
    /// its hard link into the repo's object.
    @Test func anEditedFileIsReportedAndRepairedAndNeverReused() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.syncedVersion1(in: dir)
        defer { _ = server }  // served until the test ends
        let file = try #require(dir.files(under: "src").first)
        func edit(_ version: Int) throws {
            let path = dir.at("repo/bundles/com.example.app.B-\(version)/" + file)
            #expect(chmod(path, 0o644) == 0)
            try Data("hacked".utf8).write(to: URL(fileURLWithPath: path))
        }
        try edit(1)
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("damaged: 1 file not as synced"))
        let verify = try dir.zinc.run(["repo", "verify", "--repo", "repo"])
        #expect(verify.status == 2 && verify.stdout.contains("B 1: 1 damaged file in ") && verify.stdout.contains("\n  \(file)\n"))
        let repaired = try dir.zinc(["sync", "--repo", "repo"])
        #expect(repaired.hasPrefix("com.example.app.B: repaired at version 1 ("), "\(repaired)")
        #expect(repaired.contains("damaged on disk: 1 file, 1 object fetched again"))
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.app.B-1"))
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("(up to date)"))

        // Damaged again (status finds it), then a version 2 that keeps the file: built
        // from a fresh copy.
        try edit(1)
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("damaged: 1 file not as synced"))
        try dir.write("src/more.txt", "new in version 2")
        try Self.publishB(in: dir, version: 2)
        #expect(try dir.zinc(["sync", "--repo", "repo"]).contains("1 object fetched again"))
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.app.B-2"))

        try edit(2)
        let repair = try dir.zinc.succeeds(["repo", "verify", "--repair", "--repo", "repo"])
        #expect(repair.stdout.contains("repaired at version 2") && repair.stdout.contains("B 2: healthy"))
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.app.B-2"))
        let status = try JSONSerialization.jsonObject(with: Data(dir.zinc(["status", "--repo", "repo", "--json"]).utf8))
        let bundle = try #require(((status as? [String: Any])?["bundles"] as? [[String: Any]])?.first)
        #expect((bundle["damaged_files"] as? [String]) == [])
        #expect(bundle["folder"] as? String == dir.at("repo/bundles/com.example.app.B-2"))
    }

    /// What `zinc status` finds in its one walk of the folder: a file replaced by a link
    /// and one by a folder are damaged, a stray file is counted and left unjudged. The
    /// repair writes the stamps to `stamps`, where this repo, as an earlier client left
    /// it, had `stamps.json`.
    @Test func statusFindsFilesReplacedByALinkOrAFolderAndTheRepairMovesTheStamps() throws {
        let dir = try TemporaryDirectory()
        let server = try Self.syncedVersion1(in: dir)
        defer { _ = server }  // served until the test ends
        let files = dir.files(under: "src").sorted()
        let folder = "repo/bundles/com.example.app.B-1/"
        #expect(files.count >= 3 && unlink(dir.at(folder + files[0])) == 0 && symlink(files[2], dir.at(folder + files[0])) == 0)
        #expect(unlink(dir.at(folder + files[1])) == 0)
        try dir.write(folder + files[1] + "/inside", "12345")
        try dir.write(folder + "stray.txt", "abc")
        #expect(unlink(dir.at("repo/stamps")) == 0)
        try dir.write("repo/stamps.json", #"{"format":1,"objects":{}}"#)

        let json = try JSONSerialization.jsonObject(with: Data(dir.zinc(["status", "--repo", "repo", "--json"]).utf8))
        let bundle = try #require(((json as? [String: Any])?["bundles"] as? [[String: Any]])?.first)
        #expect(bundle["damaged_files"] as? [String] == [files[0], files[1]])
        #expect(bundle["files"] as? Int == files.count)
        let repaired = try dir.zinc(["sync", "--repo", "repo"])
        #expect(repaired.hasPrefix("com.example.app.B: repaired at version 1 ("), "\(repaired)")
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.app.B-1"))
        #expect(dir.exists("repo/stamps") && !dir.exists("repo/stamps.json"))
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("(up to date)"))
    }

    /// The repo without --repo ($ZINC_REPO, or found from the current folder), the
    /// `current` link, untrack by URL, and a sync with nothing to do.
    @Test func theRepoIsFoundAndEachBundleHasAStablePath() throws {
        let dir = try TemporaryDirectory()
        try Self.publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        let environment = ["ZINC_REPO": dir.at("repo")]
        try dir.zinc.succeeds(["repo_init"], environment: environment)
        let nothing = try dir.zinc.run(["sync"], environment: environment)
        #expect(nothing.status == 0 && nothing.stdout == "Nothing to sync: the repo tracks no bundle (add one with 'zinc track').\n")
        try dir.zinc.succeeds(["track", "--catalog", server.url, "--bundle", "B"], environment: environment)
        try dir.zinc.succeeds(["sync"], environment: environment)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: dir.at("repo/current/com.example.app.B"))
                == "../bundles/com.example.app.B-1")
        #expect(try dir.files(under: "src").allSatisfy { try dir.read("repo/current/com.example.app.B/" + $0) == dir.read("src/" + $0) })

        // From inside the repo (here, a bundle folder), no option and no variable needed.
        let inside = dir.at("repo/bundles/com.example.app.B-1")
        #expect(try ZincRunner(in: inside)(["status"]).hasPrefix("com.example.app.B @master: local 1, remote 1"))
        let outside = try dir.zinc.run(["status"])
        #expect(outside.status == 64 && outside.stderr.contains("give --repo DIR, set ZINC_REPO, or run inside a repo"))

        try dir.write("src/more.txt", "version 2")
        try Self.publishB(in: dir, version: 2)
        _ = try ZincRunner(in: dir.at("repo"))(["sync"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: dir.at("repo/current/com.example.app.B"))
                == "../bundles/com.example.app.B-2")
        #expect(try dir.files(under: "src").allSatisfy { try dir.read("repo/current/com.example.app.B/" + $0) == dir.read("src/" + $0) })

        // untrack takes what track took.
        #expect(
            try dir.zinc(["untrack", "--repo", "repo", "--catalog", server.url, "--bundle", "B"]).hasPrefix(
                "No longer tracking 'B'"))
        #expect(dir.files(under: "repo/bundles").isEmpty && !dir.exists("repo/current/com.example.app.B"))
    }

    /// A sync killed at each step of an update (a file renamed into place, the spare moved
    /// aside, its files changed, the folder switched, repo.json, the `current/` link)
    /// leaves `current/` naming one whole version, the old or the new, never a mix, and
    /// the next sync completes the update. Debug builds kill themselves after the Nth
    /// change (`ZINC_KILL_AFTER_COMMITS`, see FaultInjection).
    @Test func aSyncKilledAtEveryStepLeavesOneWholeVersionAndTheNextCompletes() throws {
        let dir = try TemporaryDirectory()
        try Self.publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "start"])
        try dir.zinc(["track", "--repo", "start", "--catalog", server.url, "--bundle", "B"])
        try dir.zinc(["sync", "--repo", "start"])
        // Version 2 synced (version 1 is its spare), then version 3 published.
        let files = dir.files(under: "src")
        try dir.write("src/" + files[0], "version 2")
        try Self.publishB(in: dir, version: 2)
        try dir.zinc(["sync", "--repo", "start"])
        try copy(dir.at("src"), dir.at("src-2"))
        try dir.write("src/" + files[1], "version 3")
        try dir.write("src/lessons/new.txt", "added in version 3")
        #expect(unlink(dir.at("src/" + files[2])) == 0)
        try Self.publishB(in: dir, version: 3)
        // The folder `current/` names (files(under:) does not follow a link).
        var current: String {
            "repo/current/"
                + ((try? FileManager.default.destinationOfSymbolicLink(atPath: dir.at("repo/current/com.example.app.B"))) ?? "none")
        }

        var step = 1
        while step < 200 {
            try? FileManager.default.removeItem(atPath: dir.at("repo"))
            try copy(dir.at("start"), dir.at("repo"))
            let run = try dir.zinc.run(
                ["sync", "--repo", "repo"], environment: ["ZINC_KILL_AFTER_COMMITS": "\(step)"])
            #expect(
                try Self.sameFiles(dir, "src-2", current) || Self.sameFiles(dir, "src", current),
                "killed at change \(step): current/ names \(current)")
            if run.status == 0 { break }
            #expect(!(try dir.zinc(["status", "--repo", "repo"]).contains("damaged")), "killed at change \(step)")
            try dir.zinc(["sync", "--repo", "repo"])
            #expect(try Self.sameFiles(dir, "src", current), "the sync after a kill at change \(step)")
            #expect(try dir.zinc(["status", "--repo", "repo"]).contains("local 3, remote 3"))
            step += 1
        }
        #expect(step > 5 && step < 200, "the update made \(step - 1) changes before it ended")

        /// `cp -a`: the repo's files are hard links to its objects, which a copy must keep.
        func copy(_ from: String, _ to: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/cp")
            process.arguments = ["-a", from, to]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    /// `sync --dry-run`, `status --fetch` and `--max-bytes`: the download is known
    /// before it starts, and a budget holds it back.
    @Test func aSyncSaysWhatItWouldDownloadFirst() throws {
        let dir = try TemporaryDirectory()
        try Self.publishB(in: dir, version: 1)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        let dry = try dir.zinc(["sync", "--repo", "repo", "--dry-run"])
        #expect(dry.hasPrefix("com.example.app.B: would get version 1: "), "\(dry)")
        #expect(dir.files(under: "repo/objects").isEmpty)
        let plan = try #require(
            try JSONSerialization.jsonObject(
                with: Data(dir.zinc(["sync", "--repo", "repo", "--dry-run", "--json", "--strategy", "objects"]).utf8))
                as? [String: Any])
        let planned = try #require((plan["bundles"] as? [[String: Any]])?.first)
        let bytes = try #require(planned["bytes"] as? Int)
        #expect(planned["action"] as? String == "update" && planned["version"] as? Int == 1)

        // One strategy throughout: loopback's measured link may tip the cost model either way between runs.
        let skipped = try dir.zinc(["sync", "--repo", "repo", "--strategy", "objects", "--max-bytes", "\(bytes - 1)"])
        #expect(skipped.contains("com.example.app.B: skipped version 1: its update would download"), "\(skipped)")
        #expect(!dir.exists("repo/bundles/com.example.app.B-1"))
        let synced = try Self.firstBundle(Self.syncJSON(dir, ["--strategy", "objects", "--max-bytes", "\(bytes)"]))
        #expect(synced["outcome"] as? String == "updated")
        #expect(abs((synced["object_bytes"] as? Int ?? 0) - bytes) <= bytes / 100, "\(synced) \(planned)")

        try dir.write("src/more.txt", "version 2")
        try Self.publishB(in: dir, version: 2)
        #expect(try dir.zinc(["status", "--repo", "repo"]).contains("local 1, remote 1"))
        let fetched = try dir.zinc(["status", "--repo", "repo", "--fetch"])
        #expect(fetched.contains("local 1, remote 2") && fetched.contains("(update available: "), "\(fetched)")
    }

    /// `sync --dry-run` then `sync`, three versions ahead in a repo holding chunks: the
    /// plan's bytes are the response bodies of the run, its index (answered 304) and
    /// manifests (kept by the plan) included, and the chunk list it fetches again.
    @Test func aDryRunPredictsTheBytesOfTheSyncThatFollows() throws {
        let dir = try TemporaryDirectory()
        try Self.publishB(in: dir, version: 1)
        // Large enough to be chunked: every sync of the repo then fetches the chunk list.
        try dir.write("src/film.bin", SampleContent.noise(Int(ContentChunker.threshold) + 1000, seed: 9))
        try Self.publishB(in: dir, version: 2)
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "B"])
        _ = try Self.syncJSON(dir)
        for version in 3...5 {
            try dir.write("src/more-\(version).txt", String(repeating: "version \(version) ", count: 2000))
            try Self.publishB(in: dir, version: version)
        }
        let plan = try #require(
            try JSONSerialization.jsonObject(
                with: Data(dir.zinc(["sync", "--repo", "repo", "--dry-run", "--json", "--strategy", "lmfo"]).utf8))
                as? [String: Any])
        let planned = try #require(plan["bytes"] as? Int)
        // One strategy for both: loopback's measured link may tip the cost model either way between runs.
        let report = try Self.syncJSON(dir, ["--strategy", "lmfo"])
        let bodies = [report["catalogs"], report["bundles"]].flatMap { ($0 as? [[String: Any]]) ?? [] }
        let moved = bodies.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) }
        #expect(try Self.firstBundle(report)["version"] as? Int == 5)
        #expect(moved == planned, "planned \(planned), moved \(moved): \(report)")
    }

    @Test func concurrentSyncsOfOneRepoDoNotCorruptIt() throws {
        let dir = try TemporaryDirectory()
        try Self.makeCorpus([dir.at("src"), "--files", "60", "--mb", "3", "--seed", "3"])
        try dir.zinc(["create_catalog", "--id", "com.example.corpus", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "Corpus", "--source", "src", "--quiet"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "Corpus", "--name", "master", "--version", "1"])
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", "file://" + dir.at("cat"), "--bundle", "Corpus"])
        let processes = try (0..<4).map { _ in try ZincBinary.start(["sync", "--repo", "repo"], in: dir.path) }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.corpus.Corpus-1"))
        #expect(dir.files(under: "repo/tmp").isEmpty)
    }

    @Test func errorsNameWhatWasWrong() throws {
        let dir = try TemporaryDirectory()
        let missing = try dir.zinc.run(["sync", "--repo", "nowhere"])
        #expect(missing.status == 1 && missing.stderr.contains("no Zinc repo at 'nowhere'"))
        try dir.zinc(["repo_init", "--repo", "repo"])
        let ftp = try dir.zinc.run(["track", "--repo", "repo", "--catalog", "ftp://example.com/", "--bundle", "B"])
        #expect(ftp.status == 1 && ftp.stderr.contains("unsupported catalog URL 'ftp://example.com/'"))
        let untracked = try dir.zinc.run(["untrack", "--repo", "repo", "--catalog-id", "com.x", "--bundle", "B"])
        #expect(untracked.status == 1 && untracked.stderr.contains("bundle 'B' of catalog 'com.x' is not tracked"))
        for bad in ["0", "65"] {
            let concurrency = try dir.zinc.run(["sync", "--repo", "repo", "--concurrency", bad])
            #expect(concurrency.status == 64 && concurrency.stderr.hasPrefix("zinc: error: --concurrency must be from 1 to 64."))
        }
    }

    /// A byte flipped in a large file: `diff` prices chunks, `sync` fetches them, and a
    /// catalog written before chunk lists gains them with `add_chunk_lists`.
    @Test func anEditInsideALargeFileCostsItsChunks() throws {
        let dir = try TemporaryDirectory()
        var pack = SampleContent.noise(6 << 20, seed: 3)
        try dir.write("src/pack.bin", pack)
        try dir.write("src/readme.txt", "one")
        try dir.zinc(["create_catalog", "--id", "com.example.packs", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "P", "--source", "src", "--quiet"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "P", "--name", "master", "--version", "1"])
        let server = try ServeProcess(catalog: "cat", in: dir.path)
        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", server.url, "--bundle", "P"])
        try dir.zinc(["sync", "--repo", "repo", "--quiet"])

        pack[4_000_000] ^= 1
        try dir.write("src/pack.bin", pack)
        try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "P", "--source", "src", "--quiet"])
        // As a catalog written before chunk lists, then given them.
        try FileManager.default.removeItem(atPath: dir.at("cat/chunks/P-1.json.gz"))
        try FileManager.default.removeItem(atPath: dir.at("cat/chunks/P-2.json.gz"))
        #expect(
            try dir.zinc(["add_chunk_lists", "--catalog", "cat"]).hasSuffix(
                "Added chunk lists to 2 versions (2 objects, 12.6 MB read)\n"))
        #expect(try dir.zinc(["verify", "--catalog", "cat"]).contains("no problems"))
        let diff = try dir.zinc(["diff", "--catalog", "cat", "--bundle", "P", "--from", "1", "--to", "2"])
        #expect(diff.contains("1 object built from chunks it has (6.2"), "\(diff)")

        try dir.zinc(["update_distro", "--catalog", "cat", "--id", "P", "--name", "master", "--version", "2"])
        let update = try Self.firstBundle(Self.syncJSON(dir))
        #expect(update["chunked_objects"] as? Int == 1 && update["outcome"] as? String == "updated")
        let chunkBytes = try #require(update["chunk_bytes"] as? Int)
        #expect(chunkBytes > 0 && chunkBytes <= ContentChunker.maximumSize, "one chunk, not 6 MiB: \(chunkBytes)")
        #expect(try Self.sameFiles(dir, "src", "repo/bundles/com.example.packs.P-2"))
    }
}
