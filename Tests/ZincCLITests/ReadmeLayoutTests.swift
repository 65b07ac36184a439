import Foundation
import Testing
import ZincTestSupport

/// The README's catalog layout names every folder and file a catalog holds after an
/// import and a distribution change.
@Suite struct ReadmeLayoutTests {
    @Test func theLayoutNamesEveryTopLevelEntry() throws {
        let readme = try String(contentsOfFile: DocumentedCommandsTests.root + "/README.md", encoding: .utf8)
        let layout = try #require(
            readme.components(separatedBy: "<catalog root>/\n").dropFirst().first?.components(separatedBy: "```").first)
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--version", "1"])
        let entries = Set(
            dir.files(under: "cat").map { $0.split(separator: "/").count > 1 ? $0.split(separator: "/")[0] + "/" : Substring($0) })
        for entry in entries.filter({ !$0.hasPrefix(".") }) {
            #expect(layout.contains("  \(entry)") || layout.contains(" \(entry) "), "\(entry) is not in the README's layout")
        }
    }
}
