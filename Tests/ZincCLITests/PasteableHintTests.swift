import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Every command zinc suggests can be pasted and run as shown: each hint these runs
/// provoke is run, from the same folder, and succeeds.
@Suite struct PasteableHintTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try makeCatalogWithMaster(in: dir, bundle: "Core")
        try dir.write("src/new.txt", "level 2")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Core", "--source", "src"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--bundle", "Core", "--distro", "test", "--version", "2"])
    }

    /// The commands quoted in `text` as `'zinc …'`, split into words (the tests' paths
    /// need no quoting).
    static func hints(in text: String) -> [[String]] {
        text.components(separatedBy: "'zinc ").dropFirst().compactMap { rest in
            rest.split(separator: "'", maxSplits: 1, omittingEmptySubsequences: false).first.map {
                $0.split(separator: " ").map(String.init)
            }
        }
    }

    /// Runs `arguments`, then every hint its output gives, both with `environment`;
    /// returns the hints.
    @discardableResult
    func runWithHints(
        _ arguments: [String], status: Int32 = 0, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [[String]] {
        let result = try dir.zinc.run(arguments, environment: environment)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        let hints = Self.hints(in: result.stdout + result.stderr)
        #expect(!hints.isEmpty, "\(arguments) gave no hint: \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        for hint in hints {
            let run = try dir.zinc.run(hint, environment: environment)
            #expect(run.status == 0, "hint \(hint) of \(arguments): \(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
        }
        return hints
    }

    @Test func promoteUndo() throws {
        let hints = try runWithHints(["promote", "--catalog", "cat", "Core", "test", "master"])
        #expect(hints == [["promote", "Core", "_master", "master", "--catalog", "cat"]])
        #expect(try Catalog.open(at: CatalogLocation(rootPath: dir.at("cat"))).index().bundles["Core"]?.distributions["master"] == 1)
    }

    @Test func deleteThenClean() throws {
        try dir.write("src/new.txt", "level 3")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Core", "--source", "src"])
        try dir.write("src/new.txt", "level 4")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Core", "--source", "src"])
        let hints = try runWithHints(["delete_bundle", "--catalog", "cat", "--bundle", "Core", "--versions", "3"])
        #expect(hints == [["clean", "--force", "--catalog", "cat"]])
        let python = try runWithHints(["bundle:delete", "-c", "cat", "-b", "Core", "-v", "4"])
        #expect(python == [["clean", "--force", "--catalog", "cat"]])
    }

    /// The signing hints name the catalog; the key is the one `zinc sign` takes from
    /// $ZINC_SIGNING_KEY, as it would in the publisher's shell.
    @Test func signingHints() throws {
        try dir.zinc(["keygen", "--out", "key.pem"])
        let key = ["ZINC_SIGNING_KEY": dir.at("key.pem")]
        let sign = ["sign", "--catalog", dir.path + "/cat"]
        try dir.zinc(["sign", "--catalog", "cat", "--sign-key", "key.pem", "--quiet"])
        // A change made unsigned says how to sign the catalog again...
        try dir.write("src/new.txt", "level 3")
        let unsigned = try runWithHints(
            ["update_bundle", "--catalog", "cat", "--bundle", "Core", "--source", "src", "--unsigned", "--quiet"], environment: key)
        #expect(unsigned == [sign])
        // ...and so does verify, for an index and a manifest left unsigned.
        try dir.write("src/new.txt", "level 4")
        try ZincRunner(in: dir, silentStderr: false).succeeds([
            "update_bundle", "--catalog", "cat", "--bundle", "Core", "--source", "src", "--unsigned",
        ])
        let verify = ["verify", "--catalog", "cat", "--trusted-key", "key.pem.pub", "--quiet"]
        #expect(try runWithHints(verify, status: 2, environment: key) == [sign, sign])
        try dir.zinc(verify)
        // An index signature past its expiry, as one signed 40 days ago for 30 leaves it.
        let path = "cat/" + IndexSignature.path
        var signature = try IndexSignature.parseUnverified(dir.read(path), path: path)
        signature.signedAt -= 40 * 86_400
        signature.expiresAt = signature.signedAt + 30 * 86_400
        try dir.write(path, signature.encoded(signedBy: SigningKey.load(path: dir.at("key.pem"))))
        #expect(try runWithHints(verify, status: 2, environment: key) == [sign])
        try dir.zinc(verify)
    }

    @Test func damagedIndexRepair() throws {
        try Data("{".utf8).write(to: URL(fileURLWithPath: dir.path + "/cat/catalog.json"))
        let hints = try runWithHints(["list", "--catalog", "cat"])
        #expect(hints == [["verify", "--repair", "--catalog", dir.path + "/cat"]])
        try dir.zinc(["verify", "--catalog", "cat", "--quiet"])
    }
}

/// A publish refused because the destination made the same version differently says
/// which side to keep and the commands that keep it; keeping this catalog's runs as shown.
@Suite struct PublishConflictHintTests {
    @Test func keepingThisCatalogsVersionRunsAsShown() throws {
        let dir = try TemporaryDirectory()
        try dir.write("src/a.txt", "one")
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
        try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        // Someone imports straight into the destination; this catalog makes its own version 2.
        try dir.write("other/b.txt", "made at the destination")
        try dir.zinc(["update_bundle", "--catalog", "live", "--bundle", "B", "--source", "other"])
        try dir.write("src/c.txt", "made here, a different size")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])

        let refused = try dir.zinc.run(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nothing was published. To keep this catalog's version 2 of 'B', take the destination's out "))
        let hints = PasteableHintTests.hints(in: refused.stderr)
        #expect(
            hints == [
                ["delete_bundle", "--bundle", "B", "--versions", "2", "--catalog", "live"],
                ["clean", "--force", "--grace", "0", "--catalog", "live"],
                ["delete_bundle", "--bundle", "B", "--versions", "2", "--catalog", "cat"],
                ["clean", "--force", "--grace", "0", "--catalog", "cat"],
                ["publish", "--catalog", "live", "--to", "cat"],
            ], "\(refused.stderr)")
        for hint in hints.prefix(2) { try dir.zinc(hint) }
        try dir.zinc(["publish", "--catalog", "cat", "--to", "live", "--quiet"])
        #expect(
            try dir.zinc(["list_bundle", "--catalog", "live", "--bundle", "B", "--version", "2"]) == "a.txt\nc.txt\n")
    }
}
