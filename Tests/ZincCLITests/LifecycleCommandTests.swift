import Foundation
import Testing
import Zinc
import ZincTestSupport

@testable import ZincCLI

/// verify, clean, delete_bundle and delete_distro (and their Python-tool spellings) as
/// a user runs them: exact output, exit status, and what is left on disk.
@Suite struct LifecycleCommandTests {
    let dir: TemporaryDirectory
    /// The photo of version 1, which version 2 replaces.
    let oldPhoto: StoredObject

    /// Bundle B: version 1 is the talk's three files, version 2 replaces the photo.
    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc.succeeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        // Archives of every version, as these tests look at unnamed versions' archives.
        try dir.zinc.succeeds(["update_archive_policy", "--catalog", "cat", "--keep", "all"])
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        try dir.write("src/photos/85x85/kind.jpg", SampleContent.noise(9000, seed: 2))
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        let manifest = try Manifest.parse(dir.read("cat/manifests/B-1.json"), path: "B-1.json")
        oldPhoto = try #require(manifest.files["photos/85x85/kind.jpg"]).object
    }

    /// Runs zinc and checks its status and both outputs exactly.
    var zinc: ZincRunner { ZincRunner(in: dir) }

    @Test func verifyNamesEachProblemAndFails() throws {
        try zinc.expect(["verify", "--catalog", "cat"], stdout: "Verified 1 bundle, 2 versions, 4 objects, 2 archives: no problems\n")

        try FileManager.default.removeItem(atPath: dir.at("cat/" + oldPhoto.preferredPath))
        try dir.write("cat/index.json", "{}")
        for spelling in [["verify", "--catalog", "cat"], ["catalog:verify", "-c", "cat"]] {
            try zinc.expect(
                spelling, status: 2,
                stdout: """
                    index.json: differs from catalog.json
                    \(oldPhoto.preferredPath): missing (manifests/B-1.json refers to it)
                    Verified 1 bundle, 2 versions, 4 objects, 2 archives: 2 problems

                    """)
        }
        try zinc.expect(
            ["verify", "--catalog", "cat", "--json"], status: 2,
            stdout: """
                {
                  "checked": {
                    "archives": 2,
                    "bundles": 1,
                    "objects": 4,
                    "unarchived": 0,
                    "versions": 2
                  },
                  "ok": false,
                  "problems": [
                    {
                      "path": "index.json",
                      "problem": "differs from catalog.json"
                    },
                    {
                      "path": "\(oldPhoto.preferredPath)",
                      "problem": "missing (manifests/B-1.json refers to it)"
                    }
                  ]
                }

                """)
        // One bundle or version: the index files are not its business.
        try zinc.expect(
            ["bundle:verify", "-c", "cat", "-b", "B", "-v", "2"],
            stdout: "Verified 1 bundle, 1 version, 3 objects, 1 archive: no problems\n")
        try zinc.expect(
            ["verify", "--catalog", "cat", "--bundle", "B", "--version", "1"], status: 2,
            stdout: """
                \(oldPhoto.preferredPath): missing (manifests/B-1.json refers to it)
                Verified 1 bundle, 1 version, 3 objects, 1 archive: 1 problem

                """)
        try zinc.expect(
            ["verify", "--catalog", "cat", "--bundle", "X"], status: 1, stdout: "",
            stderr: "zinc: error: no bundle 'X' in the catalog\n")
        let noBundle = try zinc.run(["verify", "--catalog", "cat", "--version", "1"])
        #expect(noBundle.status != 0 && noBundle.stderr.contains("--version needs --bundle"))
    }

    @Test func cleanListsThenRemovesWhatNoVersionUses() throws {
        try zinc.expect(["clean", "--catalog", "cat"], stdout: "Would remove 0 files (0 B)\n")
        try zinc.expect(
            ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"],
            stdout: """
                manifests/B-1.json
                manifests/B-1.json.gz
                sizes/B-1.json.gz
                lmfo/B-1.json
                manifest-chunks/B-1.json.gz
                archives/B-1.tar
                Deleted version 1 of 'B'
                The files stay 5 minutes for clients holding the old index; 'zinc clean --force --catalog cat' removes them after that

                """)
        try dir.write("cat/objects/00/11/0011223344556677889900112233445566778899", "zz")
        let garbage = [
            "lmfo/B-1.json", "manifests/B-1.json", "manifests/B-1.json.gz", "manifest-chunks/B-1.json.gz", "sizes/B-1.json.gz",
            "archives/B-1.tar", "objects/00/11/0011223344556677889900112233445566778899", oldPhoto.preferredPath,
        ].sorted { a, b in
            // clean's order: LMFO records, manifests, their chunk descriptions, sizes files, archives, then objects
            let rank = { (p: String) in
                ["lmfo", "manifests", "manifest-chunks", "sizes", "archives", "objects"].firstIndex { p.hasPrefix($0) }!
            }
            return rank(a) != rank(b) ? rank(a) < rank(b) : a < b
        }
        let bytes = try garbage.reduce(0) { $0 + (try dir.read("cat/" + $1).count) }
        #expect(garbage.allSatisfy { dir.exists("cat/" + $0) }, "delete_bundle leaves the files to clean")

        // Within the index's cache lifetime, what left it stays, said for what it is:
        // version 1 and its photo left the index at the deletion; the stray object has
        // no record of when it left (counted from now).
        let kept = try zinc.succeeds(["clean", "--catalog", "cat", "--force"])
        let strayBytes = Int64(2)
        #expect(
            kept.stdout.hasPrefix(
                "Removed 0 files (0 B)\nKept \(garbage.count - 1) files (\(HumanFormat.bytes(Int64(bytes) - strayBytes))) that left the index at 20"
            ),
            "\(kept.stdout)")
        #expect(kept.stdout.contains(", for clients that may still hold it; removable from 20"), "\(kept.stdout)")
        #expect(
            kept.stdout.contains("\nKept 1 file (2 B) that no index lists, with no record of when they left it: counted from now"),
            "\(kept.stdout)")
        #expect(garbage.allSatisfy { dir.exists("cat/" + $0) })

        try zinc.expect(
            ["clean", "--catalog", "cat", "--grace", "0"],
            stdout: garbage.map { $0 + "\n" }.joined() + "Would remove \(garbage.count) files (\(HumanFormat.bytes(Int64(bytes))))\n")
        #expect(garbage.allSatisfy { dir.exists("cat/" + $0) })
        try zinc.expect(
            ["catalog:clean", "-c", "cat", "-f", "--grace", "0"],
            stdout: garbage.map { $0 + "\n" }.joined() + "Removed \(garbage.count) files (\(HumanFormat.bytes(Int64(bytes))))\n")
        #expect(!garbage.contains { dir.exists("cat/" + $0) })
        #expect(dir.files(under: "cat/retired").isEmpty, "spent records go with the files")
        try zinc.expect(["clean", "--catalog", "cat", "--force"], stdout: "Removed 0 files (0 B)\n")
        try zinc.expect(["verify", "--catalog", "cat"], stdout: "Verified 1 bundle, 1 version, 3 objects, 1 archive: no problems\n")
        try zinc.expect(
            ["clean", "--catalog", "cat", "--grace=-1"], status: 64, stdout: "",
            stderr:
                "zinc: error: --grace must be from 0 to 3153600000 seconds (a century), not -1\nUsage: zinc clean [--catalog <catalog>] [--endpoint-url <url>] [--force] [--grace <grace>] [--quiet] [--json]\n  See 'zinc clean --help' for more information.\n"
        )
        let huge = try zinc.run(["clean", "--catalog", "cat", "--force", "--grace", "\(Int.max)"])
        #expect(huge.status == 64 && huge.stderr.hasPrefix("zinc: error: --grace must be from 0 to 3153600000 seconds"))
    }

    @Test func deleteBundleRefusesReferencedVersionsNamingTheDistribution() throws {
        try zinc.succeeds(["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2"])
        let before = dir.files(under: "cat")
        try zinc.expect(
            ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1", "2"], status: 1, stdout: "",
            stderr: "zinc: error: version 2 of 'B' is referenced by distribution 'master'; nothing was deleted\n")
        try zinc.expect(
            ["bundle:delete", "-c", "cat", "-b", "B", "-v", ":all"], status: 1, stdout: "",
            stderr: "zinc: error: version 2 of 'B' is referenced by distribution 'master'; nothing was deleted\n")
        #expect(dir.files(under: "cat") == before)

        try zinc.expect(
            ["bundle:delete", "-c", "cat", "-b", "B", "-v", ":unreferenced", "-n"],
            stdout: """
                manifests/B-1.json
                manifests/B-1.json.gz
                sizes/B-1.json.gz
                lmfo/B-1.json
                manifest-chunks/B-1.json.gz
                archives/B-1.tar
                Would delete version 1 of 'B'

                """)
        #expect(dir.files(under: "cat") == before)
        try zinc.expect(
            ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "unreferenced"],
            stdout: """
                manifests/B-1.json
                manifests/B-1.json.gz
                sizes/B-1.json.gz
                lmfo/B-1.json
                manifest-chunks/B-1.json.gz
                archives/B-1.tar
                Deleted version 1 of 'B'
                The files stay 5 minutes for clients holding the old index; 'zinc clean --force --catalog cat' removes them after that

                """)
        try zinc.expect(
            ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "unreferenced"], stdout: "No version of 'B' to delete\n")

        try zinc.expect(
            ["delete_distro", "--catalog", "cat", "--id", "B", "--name", "master"],
            stdout: "Deleted distribution 'master' of 'B' (it pointed at version 2)\n")
        try zinc.expect(
            ["distro:delete", "-c", "cat", "-b", "B", "-d", "master"], status: 1, stdout: "",
            stderr: "zinc: error: bundle 'B' has no distribution 'master'\n")
        try zinc.expect(
            ["bundle:delete", "-c", "cat", "-b", "B", "-v", "all"],
            stdout: """
                manifests/B-2.json
                manifests/B-2.json.gz
                sizes/B-2.json.gz
                lmfo/B-2.json
                manifest-chunks/B-2.json.gz
                archives/B-2.tar
                Deleted version 2 of 'B'; no version is left (its numbers stay used)
                The files stay 5 minutes for clients holding the old index; 'zinc clean --force --catalog cat' removes them after that

                """)
        // The bundle keeps its entry, so its version numbers are never handed out again.
        #expect(
            String(decoding: try dir.read("cat/catalog.json"), as: UTF8.self)
                == #"{"bundles":{"B":{"distributions":{},"next_version":2,"versions":[]}},"format":"1","id":"com.example.app"}"#)
        try zinc.expect(
            ["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"], status: 1, stdout: "",
            stderr: "zinc: error: bundle 'B' has no version 1\n")
        try zinc.expect(
            ["delete_bundle", "--catalog", "cat", "--name", "Nope", "--versions", "1"], status: 1, stdout: "",
            stderr: "zinc: error: no bundle 'Nope' in the catalog\n")
        let recreated = try zinc.run(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        #expect(recreated.status == 0 && recreated.stdout.hasPrefix("Created bundle 'B' version 3\n"))
    }

    @Test func verifyAndCleanDrawProgressOnATerminalOnly() throws {
        let verify = try ZincBinary.runOnTerminal(["verify", "--catalog", "cat"], in: dir.path)
        #expect(verify.terminal.contains("\rChecking objects  [####################]  4/4 files  "))
        #expect(verify.terminal.contains("\rChecking archives  [####################]  2/2 files  "))
        #expect(verify.terminal.hasSuffix("\r\nVerified 1 bundle, 2 versions, 4 objects, 2 archives: no problems\r\n"))
        let quiet = try ZincBinary.runOnTerminal(["verify", "--catalog", "cat", "--quiet"], in: dir.path)
        #expect(quiet.terminal == "Verified 1 bundle, 2 versions, 4 objects, 2 archives: no problems\r\n")

        try zinc.succeeds(["delete_bundle", "--catalog", "cat", "--name", "B", "--versions", "1"])
        let clean = try ZincBinary.runOnTerminal(["clean", "--catalog", "cat", "--force", "--grace", "0"], in: dir.path)
        #expect(clean.terminal.contains("\rRemoving  [####################]  7/7 files  "))
        #expect(
            clean.terminal.contains(
                "\r\nlmfo/B-1.json\r\nmanifests/B-1.json\r\nmanifests/B-1.json.gz\r\nmanifest-chunks/B-1.json.gz\r\nsizes/B-1.json.gz\r\narchives/B-1.tar\r\n\(oldPhoto.preferredPath)\r\nRemoved 7 files ("
            ))
    }

    /// Writers import new trees (some reusing content of versions just deleted, whose
    /// objects are garbage until reused) while `clean --force` runs over and over.
    @Test func cleanRunningBesideImportsLosesNothing() throws {
        let writers = 3, iterations = 6
        func own(_ writer: Int, _ i: Int) -> [UInt8] { SampleContent.noise(4000, seed: UInt64(writer * 100 + i + 10)) }
        func tree(_ writer: Int, _ i: Int) -> [String: [UInt8]] {
            [
                "own.bin": own(writer, i),
                "recycled.bin": own(writer, i - 3),  // the own file of a version deleted one iteration ago
                "common.json": SampleContent.text(5000),
                "\(i).txt": SampleContent.text(2000 + i, word: "w\(writer)"),
            ]
        }
        for writer in 0..<writers {
            for i in 1...iterations {
                for (path, content) in tree(writer, i) { try dir.write("src/\(writer)-\(i)/\(path)", content) }
            }
        }
        // Each writer keeps master and _master: every iteration deletes the version before those.
        // The processes are started and awaited from here: the test runner's children inherit
        // a signal mask that blocks SIGCHLD, so a shell's `wait` for a background job never returns.
        func shell(_ script: String, log: String) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "set -e\n" + script + " >\(log) 2>&1"]
            process.environment = ["Z": ZincBinary.path, "ZINC_CACHE_DIR": ZincBinary.cacheFolder(in: dir.path)]
            process.currentDirectoryURL = URL(fileURLWithPath: dir.path)
            try process.run()
            return process
        }
        let writerProcesses = try (0..<writers).map { p in
            try shell(
                """
                for i in \((1...iterations).map(String.init).joined(separator: " ")); do
                  "$Z" update_bundle --catalog cat --name B\(p) --source src/\(p)-$i
                  "$Z" update_distro --catalog cat --id B\(p) --name master --version latest
                  "$Z" delete_bundle --catalog cat --name B\(p) --versions unreferenced
                done
                """, log: "log.\(p)")
        }
        let cleaner = try shell(
            """
            while [ ! -e writers.done ]; do
              "$Z" clean --catalog cat --force --grace 0
              echo run >>clean.runs
            done
            """, log: "log.clean")
        for process in writerProcesses { process.waitUntilExit() }
        try dir.write("writers.done", "")
        cleaner.waitUntilExit()
        let logs = (0..<writers).map { "log.\($0)" } + ["log.clean"]
        let failed = (writerProcesses + [cleaner]).contains { $0.terminationStatus != 0 }
        #expect(!failed, "\(logs.map { String(decoding: (try? dir.read($0)) ?? [], as: UTF8.self) })")
        let cleanRuns = String(decoding: try dir.read("clean.runs"), as: UTF8.self).split(separator: "\n").count
        #expect(cleanRuns >= 3, "clean ran \(cleanRuns) times beside the writers")

        try zinc.expect(["verify", "--catalog", "cat"], stdout: "Verified 4 bundles, 8 versions, 23 objects, 8 archives: no problems\n")
        let catalog = try Catalog.open(at: CatalogLocation(rootPath: dir.at("cat")))
        for writer in 0..<writers {
            let entry = try #require(try catalog.index().bundles["B\(writer)"])
            #expect(entry.versions == [iterations - 1, iterations])
            #expect(entry.distributions == ["master": iterations, "_master": iterations - 1])
            for version in entry.versions {
                let manifest = try catalog.manifest(bundle: "B\(writer)", version: version)
                let expected = tree(writer, version)
                #expect(manifest.files.keys.sorted() == expected.keys.sorted())
                for (path, entry) in manifest.files {
                    let stored = try dir.read("cat/" + entry.object.preferredPath)
                    let content = entry.object.preferredFormat == .gz ? try GzipDecompressor.decompress(stored) : stored
                    #expect(content == expected[path], "B\(writer)-\(version): \(path)")
                }
            }
        }
        // The loop may have stopped before the last deletions: one more run leaves only the
        // objects of the kept versions (and of B).
        try zinc.succeeds(["clean", "--catalog", "cat", "--force", "--grace", "0"])
        #expect(dir.files(under: "cat/objects").count == 23)
        try zinc.expect(["verify", "--catalog", "cat"], stdout: "Verified 4 bundles, 8 versions, 23 objects, 8 archives: no problems\n")
    }
}
