import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Bad input: a specific message naming the culprit, a non-zero status, no damage.
@Suite struct ErrorReportingTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc.succeeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
    }

    /// The shared `expectFailure` (any failing status), and the catalog left as it was.
    func expectFailure(_ arguments: [String], message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try dir.catalogContent("cat")
        try ZincRunner(in: dir).expectFailure(arguments, status: nil, message: message, sourceLocation: sourceLocation)
        #expect(try dir.catalogContent("cat") == before, "the catalog changed", sourceLocation: sourceLocation)
    }

    @Test func catalogProblems() throws {
        try expectFailure(
            ["create_catalog", "--id", "com.example.app", "--dest", "cat"],
            message: "a catalog already exists at '\(dir.at("cat"))'")
        try expectFailure(
            ["update_bundle", "--catalog", "nowhere", "--name", "B", "--source", "src"],
            message: "no catalog at 'nowhere' (no catalog.json in \(dir.at("nowhere")) or \(dir.at("catalogs/nowhere")))")
        try dir.write("cat/catalog.json", #"{"id":"com.example.app","format":"2","bundles":{}}"#)
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            message: "'\(dir.at("cat"))/catalog.json' is in catalog format '2'; this zinc reads and writes format '1' only")
        try dir.write("cat/catalog.json", #"{"name":"left-pad","version":"1.3.0"}"#)
        try expectFailure(
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "1"],
            message: "'\(dir.at("cat"))/catalog.json' is not a valid Zinc file: no 'format' key: not a Zinc catalog index")
    }

    /// An index that names a bundle `../../victim`, or holds a NUL or numbers past what
    /// clients can hold, is refused by every command, naming the file and the value;
    /// nothing outside the catalog is touched.
    @Test func hostileIndexContent() throws {
        try dir.write("victim-1.json", "keep me")
        let index = dir.at("cat") + "/catalog.json"
        for (json, reason) in [
            (
                #"{"id":"com.example.app","format":"1","bundles":{"../../victim":{"versions":[1],"next_version":1}}}"#,
                "invalid bundle name '../../victim': it contains '/' (a name may hold any character but slashes, '~' and control characters)"
            ),
            (
                "{\"id\":\"com.example.app\",\"format\":\"1\",\"bundles\":{\"B\\u0000\":{\"versions\":[1]}}}",
                "invalid bundle name 'B\\u{0}': it contains a control character (a name may hold any character but slashes, '~' and control characters)"
            ),
            (
                #"{"id":"com.example.app","format":"1","bundles":{"B":{"versions":[1],"next_version":9223372036854775807}}}"#,
                "bundle 'B': 'next_version' is not a number from 0 to 2147483647"
            ),
        ] {
            try dir.write("cat/catalog.json", json)
            for arguments in [
                ["delete_bundle", "--catalog", "cat", "--name", "../../victim", "--versions", "all"],
                ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
                ["clean", "--catalog", "cat", "--force"], ["verify", "--catalog", "cat"],
            ] {
                try expectFailure(arguments, message: "'\(index)' is not a valid Zinc file: \(reason)")
            }
        }
        #expect(try dir.read("victim-1.json") == Array("keep me".utf8))
    }

    @Test func sourceProblems() throws {
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "missing"],
            message: "'missing': no such folder")
        try FileManager.default.createSymbolicLink(atPath: dir.at("src/escape"), withDestinationPath: "/etc/passwd")
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            message: "'src/escape': symlink points outside the source folder (to '/etc/passwd')")
        try FileManager.default.removeItem(atPath: dir.at("src/escape"))
        try FileManager.default.createSymbolicLink(atPath: dir.at("src/dangling"), withDestinationPath: "nothing")
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            message: "'src/dangling': dangling symlink (its target does not exist)")
        try FileManager.default.removeItem(atPath: dir.at("src/dangling"))
        try dir.write("src/ma\u{F1}ana.txt", "precomposed")
        try dir.write("src/man\u{303}ana.txt", "decomposed")
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"],
            message: "'src/ma\u{F1}ana.txt': another name in its folder, 'man\u{303}ana.txt', differs from it only "
                + "in Unicode normalization (man\\u{303}ana.txt against ma\\u{F1}ana.txt); macOS, iOS and Zinc's "
                + "readers take the two for one name, so rename one")
        try FileManager.default.createDirectory(atPath: dir.at("empty/sub"), withIntermediateDirectories: true)
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "B", "--source", "empty"],
            message: "source folder 'empty' holds no files")
    }

    @Test func nameAndVersionProblems() throws {
        try expectFailure(
            ["update_bundle", "--catalog", "cat", "--name", "../B", "--source", "src"],
            message: "invalid bundle name '../B': it contains '/' (a name may hold any character but slashes, '~' and control characters)")
        try expectFailure(
            ["create_catalog", "--id", "com example", "--dest", "other"],
            message: "invalid catalog id 'com example': only letters, digits, '.', '_' and '-' are allowed")
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src"])
        try expectFailure(
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "7"],
            message: "bundle 'B' has no version 7")
        try expectFailure(
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "newest"],
            message: "invalid version 'newest': expected a number, 'latest' or '@DISTRO'")
        try expectFailure(
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "_master", "--version", "1"],
            message: "invalid distribution name '_master': names starting with '_' are reserved for previous-distro pointers")
        try expectFailure(
            ["update_distro", "--catalog", "cat", "--id", "B", "--name", "master", "--version", "@qa"],
            message: "bundle 'B' has no distribution 'qa'")
        try expectFailure(
            ["update_distro", "--catalog", "cat", "--id", "Nope", "--name", "master", "--version", "1"],
            message: "no bundle 'Nope' in the catalog")
    }

    /// A name the format allows but a client in use breaks on is imported, with a
    /// warning that says which client and why; the Python spelling warns too.
    @Test func aBundleNameJavaZincMishandlesIsImportedWithAWarning() throws {
        let warning =
            "zinc: warning: bundle name 'Level.1' contains '.': JavaZinc (the Android client) crashes on its "
            + "second start after tracking such a bundle; a name without '.' works with every client\n"
        let result = try ZincRunner(in: dir, silentStderr: false).succeeds([
            "update_bundle", "--catalog", "cat", "--name", "Level.1", "--source", "src",
        ])
        #expect(result.stdout.hasPrefix("Created bundle 'Level.1' version 1 (new bundle)\n"))
        #expect(result.stderr == warning)
        try dir.zinc.expect(["bundle:update", "-c", "cat", "-b", "Level.1", "-p", "src", "-f"], stdout: "2\n", stderr: warning)
        try dir.zinc.succeeds(["update_bundle", "--catalog", "cat", "--name", "Level", "--source", "src"])
    }

    @Test func missingArgumentsAreUsageErrors() throws {
        let result = try dir.zinc.run(["update_bundle", "--catalog", "cat"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("zinc: error: missing expected argument '--bundle <bundle>'\n"))
        #expect(result.stderr.contains("\nUsage: zinc update_bundle "))
    }

    /// A required value missing from both its option and the environment, found when
    /// the command runs: the usage shown is that command's.
    @Test func aCatalogMissingEverywhereShowsTheCommandsUsage() throws {
        let list = try dir.zinc.run(["list"])
        #expect(list.status == 64)
        #expect(
            list.stderr.hasPrefix("zinc: error: missing expected argument '--catalog <catalog>' (or set ZINC_CATALOG)\nUsage: zinc list "))
        #expect(list.stderr.hasSuffix("  See 'zinc list --help' for more information.\n"), "\(list.stderr)")
        let verify = try dir.zinc.run(["repo", "verify"])
        #expect(verify.status == 64 && verify.stderr.contains("\nUsage: zinc repo verify "), "\(verify.stderr)")
    }

    @Test func keygenMakesThePrivateFoldersItWritesInto() throws {
        try dir.zinc.succeeds(["keygen", "--out", "keys/release/signing.key"])
        for folder in ["keys", "keys/release"] {
            var info = stat()
            #expect(stat(dir.at(folder), &info) == 0 && info.st_mode & 0o777 == 0o700, "\(folder)")
        }
        #expect(dir.exists("keys/release/signing.key") && dir.exists("keys/release/signing.key.pub"))
    }
}
