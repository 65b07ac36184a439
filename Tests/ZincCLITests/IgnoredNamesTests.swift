import Foundation
import Testing
import ZincTestSupport

/// Ignore rules apply before the name checks: a file whose name is not UTF-8 (or holds
/// a control character) is refused unless `--exclude` or `.zincignore` leaves it out.
@Suite struct IgnoredNamesTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/ok.txt", "ok")
        var latin1 = Array(dir.at("src/caf").utf8) + [0xE9] + Array(".txt".utf8) + [0]
        let fd = creat(&latin1, 0o644)
        #expect(fd >= 0)
        close(fd)
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
    }

    @Test func anExcludedNameThatIsNotUTF8IsLeftOut() throws {
        let refused = try dir.zinc.run(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the name is not valid UTF-8"), "\(refused.stderr)")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--exclude", "caf*"])
        #expect(try dir.zinc(["list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1"]) == "ok.txt\n")
        try dir.write("src/.zincignore", "caf*\n")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
    }
}
