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
        try zincSucceeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"], in: dir.path)
    }

    @Test func anExcludedNameThatIsNotUTF8IsLeftOut() throws {
        let refused = try ZincBinary.run(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"], in: dir.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the name is not valid UTF-8"), "\(refused.stderr)")
        try zincSucceeds(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--exclude", "caf*"], in: dir.path)
        #expect(try zincSucceeds(["list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "1"], in: dir.path) == "ok.txt\n")
        try dir.write("src/.zincignore", "caf*\n")
        try zincSucceeds(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"], in: dir.path)
    }
}
