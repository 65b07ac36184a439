import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// `zinc diff` through the built binary: exact lines, the JSON document, and errors.
@Suite struct DiffCommandTests {
    let dir: TemporaryDirectory

    /// B 1: a.txt, photo.jpg; B 2: photo.jpg replaced, b.txt added; master at 2 after 1.
    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/a.txt", "alpha")
        try dir.write("src/photo.jpg", SampleContent.noise(8640, seed: 1))
        try zinc("create_catalog", "--id", "c", "--dest", "cat")
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        try dir.write("src/photo.jpg", SampleContent.noise(9000, seed: 2))
        try dir.write("src/b.txt", "beta!")
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1")
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "2")
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    @Test func printsTheChangesAndTheDownload() throws {
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "@_master", "--to", "@master") == """
                B: version 1 -> 2
                                         size  download  path
                  added                   5 B       5 B  b.txt
                  changed  8.64 kB -> 9.00 kB   9.00 kB  photo.jpg
                1 added, 0 removed, 1 changed, 0 renamed, 1 unchanged
                A client on version 1 is missing 2 objects:
                  LMFO range  1 request, 10.8 kB  (sync's choice)
                  objects     2 requests, 9.01 kB
                  archive     1 request, 12.8 kB

                """)
    }

    @Test func printsOneJSONDocument() throws {
        let json = try JSONValue.parse(
            Array(
                try zinc(
                    "diff", "--catalog", "cat", "--bundle", "B", "--from", "1",
                    "--json"
                ).utf8))
        let photo1 = sha1Hex(SampleContent.noise(8640, seed: 1)), photo2 = sha1Hex(SampleContent.noise(9000, seed: 2))
        func file(_ sha: String, _ size: Int64) -> [String: JSONValue] {
            ["sha": .string(sha), "format": .string("raw"), "stored_size": .int(size), "size": .int(size)]
        }
        var added = file(sha1Hex(Array("beta!".utf8)), 5)
        added["path"] = .string("b.txt")
        added["download"] = .int(5)
        let changed: [String: JSONValue] = [
            "path": .string("photo.jpg"), "old": .object(file(photo1, 8640)),
            "new": .object(file(photo2, 9000)), "download": .int(9000),
        ]
        let lmfo: [String: JSONValue] = ["requests": .int(1), "bytes": .int(10752), "cost": .int(10752 + 16384)]
        let objects: [String: JSONValue] = ["requests": .int(2), "bytes": .int(9005), "cost": .int(9005 + 2 * 16384)]
        let archive: [String: JSONValue] = ["requests": .int(1), "bytes": .int(12800), "cost": .int(12800 + 16384)]
        let download: [String: JSONValue] = [
            "missing_objects": .int(2), "strategy": .string("lmfo"),
            "lmfo": .object(lmfo), "objects": .object(objects), "archive": .object(archive),
            // No file is large enough to be chunked.
            "chunks": .object(["objects": .int(0), "requests": .int(0), "bytes": .int(0), "reused_bytes": .int(0)]),
            "total": .object(["requests": .int(1), "bytes": .int(10752)]),
        ]
        let expected: [String: JSONValue] = [
            "bundle": .string("B"), "flavor": .null, "from": .int(1), "to": .int(2), "unchanged": .int(1),
            "added": .array([.object(added)]), "removed": .array([]), "changed": .array([.object(changed)]),
            "renamed": .array([]), "from_default": .null, "from_rollout": .null, "download": .object(download),
        ]
        #expect(json == .object(expected))
    }

    @Test func summarisesTheVersionsInUse() throws {
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B", "--summary") == """
                B: updating to version 2
                  from 1 (_master): 2 objects, 10.8 kB in 1 request by LMFO range

                """)
        let json = try JSONValue.parse(
            Array(
                try zinc(
                    "diff", "--catalog", "cat", "--bundle", "B", "--summary",
                    "--json"
                ).utf8))
        guard case .object(let top) = json, case .array(let rows)? = top["versions"], case .object(let row) = rows.first
        else { Issue.record("unexpected \(json)"); return }
        #expect(top["to"] == .int(2))
        #expect(row["from"] == .int(1))
        #expect(row["distributions"] == .array([.string("_master")]))
    }

    @Test func refusesUnknownVersionsAndMissingOptions() throws {
        let missing = try zinc.run(["diff", "--catalog", "cat", "--bundle", "B", "--from", "7"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("'B'") && missing.stderr.contains("7"))
        let both = try zinc.run(["diff", "--catalog", "cat", "--bundle", "B", "--from", "1", "--summary"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("give --from or --summary, not both."))
        // Version 1 is the first, and master is not on another: nothing to compare it with.
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1")
        let first = try zinc.run(["diff", "--catalog", "cat", "--bundle", "B", "--to", "1"])
        #expect(first.status == 1)
        #expect(first.stderr == "zinc: error: bundle 'B' has no version before 1, its first (give --from)\n")
    }

    @Test func withoutFromComparesWithMasterElseTheVersionBefore() throws {
        // master is on 2, the latest: the version before it.
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B").hasPrefix(
                "B: version 1 -> 2 (from the version before, as --from was not given)\n"))
        try dir.write("src/c.txt", "gamma")
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        // master is on 2, not the latest (3): master's.
        let output = try zinc("diff", "--catalog", "cat", "--bundle", "B")
        #expect(output.hasPrefix("B: version 2 -> 3 (from @master, as --from was not given)\n"))
        let json = try JSONValue.parse(Array(try zinc("diff", "--catalog", "cat", "--bundle", "B", "--json").utf8))
        #expect(json.objectValue?["from"] == .int(2) && json.objectValue?["from_default"] == .string("@master"))
        let previous = try JSONValue.parse(Array(try zinc("diff", "--catalog", "cat", "--bundle", "B", "--to", "2", "--json").utf8))
        #expect(previous.objectValue?["from"] == .int(1) && previous.objectValue?["from_default"] == .string("previous"))
    }

    /// A distribution in a rollout has installs on two versions: a diff from it says so,
    /// with the rollout's state and share, whether `@master` was given or taken by default.
    @Test func aDiffFromADistributionInARolloutSaysSo() throws {
        try dir.write("src/c.txt", "gamma")
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        let target = ["--catalog", "cat", "--bundle", "B", "--distro", "master"]
        try dir.zinc(["rollout", "start", "--version", "3", "--percent", "10"] + target)
        let rolloutLine = "'master' is in a rollout: version 3 over 2 (active, 10.00%)\n"
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "@master", "--to", "3").hasPrefix(
                "B: version 2 -> 3\n" + rolloutLine))
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B").hasPrefix(
                "B: version 2 -> 3 (from @master, as --from was not given)\n" + rolloutLine))
        #expect(!(try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "2", "--to", "3")).contains("rollout"))
        func fromRollout(_ from: String) throws -> JSONValue? {
            let output = try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", from, "--to", "3", "--json")
            return try JSONValue.parse(Array(output.utf8)).objectValue?["from_rollout"]
        }
        #expect(
            try fromRollout("@master")
                == .object([
                    "distro": .string("master"), "state": .string("active"), "control": .int(2), "candidate": .int(3),
                    "percentage": .string("10.00"),
                ]))
        #expect(try fromRollout("2") == .null)
        #expect(try fromRollout("@_master") == .null)

        try dir.zinc(["rollout", "halt"] + target)
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "@master", "--to", "3").hasPrefix(
                "B: version 2 -> 3\n'master' is in a rollout: version 3 over 2 (halted)\n"))
        #expect(try fromRollout("@master")?.objectValue?["percentage"] == .string("0.00"))
        try dir.zinc(["rollout", "complete"] + target)
        #expect(try fromRollout("@_master") == .null, "a completed rollout is over")
    }

    @Test func aMovedFileIsARenameThatCostsNothing() throws {
        try FileManager.default.removeItem(atPath: dir.at("src/a.txt"))
        try dir.write("src/docs/a.txt", "alpha")
        try dir.write("src/b.txt", "beta?")
        try zinc("update_bundle", "--catalog", "cat", "--name", "B", "--source", "src")
        // Archives are priced where they are: once a distribution names the version.
        #expect(!(try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "2", "--to", "3").contains("archive")))
        try zinc("update_distro", "--catalog", "cat", "--id", "B", "--name", "test", "--version", "3")
        #expect(
            try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "2", "--to", "3") == """
                B: version 2 -> 3
                                 size  download  path
                  changed  5 B -> 5 B       5 B  b.txt
                  renamed         5 B       0 B  a.txt -> docs/a.txt
                0 added, 0 removed, 1 changed, 1 renamed, 1 unchanged
                A client on version 2 is missing 1 object:
                  LMFO range  1 request, 1.02 kB
                  objects     1 request, 5 B  (sync's choice)
                  archive     1 request, 12.8 kB

                """)
        let json = try JSONValue.parse(
            Array(try zinc("diff", "--catalog", "cat", "--bundle", "B", "--from", "2", "--to", "3", "--json").utf8))
        #expect(
            json.objectValue?["renamed"]
                == .array([
                    .object([
                        "from": .string("a.txt"), "to": .string("docs/a.txt"), "sha": .string(sha1Hex(Array("alpha".utf8))),
                        "format": .string("raw"), "stored_size": .int(5), "size": .int(5),
                    ])
                ]))
        #expect(json.objectValue?["added"] == .array([]) && json.objectValue?["removed"] == .array([]))
    }
}
