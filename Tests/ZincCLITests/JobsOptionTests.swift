import Foundation
import Testing
import ZincTestSupport

/// `--jobs N` on the commands that work on several threads: the same results on one
/// thread as on all cores, and a clear usage error for a count below one.
@Suite struct JobsOptionTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.mixedTree(in: dir)
        for catalog in ["one", "cores"] {
            try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", catalog])
        }
    }

    @Test func oneJobWritesTheCatalogAllCoresWrite() throws {
        try dir.zinc(["update_bundle", "--catalog", "one", "--name", "B", "--source", "src", "--jobs", "1"])
        try dir.zinc(["update_bundle", "--catalog", "cores", "--name", "B", "--source", "src"])
        #expect(try dir.catalogContent("one") == dir.catalogContent("cores"))

        #expect(try dir.zinc(["verify", "--catalog", "one", "-j", "1"]).hasSuffix(": no problems\n"))
        try dir.zinc(
            ["clone_bundle", "--catalog", "one", "--name", "B", "--version", "1", "--dest", "out", "-j", "1"])
        let source = dir.files(under: "src")
        #expect(dir.files(under: "out/com.example.app.B-1") == source)
        for file in source { #expect(try dir.read("out/com.example.app.B-1/" + file) == dir.read("src/" + file), "\(file)") }
    }

    @Test func aJobCountBelowOneIsAUsageError() throws {
        try dir.zinc(["update_bundle", "--catalog", "one", "--name", "B", "--source", "src"])
        let before = try dir.catalogContent("one")
        for (command, count) in [
            (["update_bundle", "--catalog", "one", "--name", "B", "--source", "src", "--force"], "0"),
            (["verify", "--catalog", "one"], "-2"),
            (["clone_bundle", "--catalog", "one", "--name", "B", "--version", "1", "--dest", "out"], "0"),
        ] {
            let result = try dir.zinc.run(command + ["--jobs=\(count)"])
            #expect(result.status == 64, "\(command[0])")
            #expect(result.stderr.hasPrefix("zinc: error: --jobs must be at least 1, not \(count)\n"), "\(command[0]): \(result.stderr)")
            #expect(result.stdout == "")
        }
        #expect(try dir.catalogContent("one") == before)
        #expect(!dir.exists("out"))
    }
}
