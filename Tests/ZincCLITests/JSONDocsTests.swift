import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

/// docs/JSON.md's table is the schema of `--json`, checked against the reports: every
/// key a command prints, at any depth, is named (quoted) in that command's row, so a
/// field added to a report without its documentation fails here.
@Suite struct JSONDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The table's rows: the command cell (`update_bundle --json`) to the document cell,
    /// with the cells of the rows it refers to (`CLEAN as \`clean --json\``).
    static func rows() throws -> [String: String] {
        let text = try String(contentsOfFile: root + "/docs/JSON.md", encoding: .utf8)
        var rows = [String: String]()
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.dropFirst(2).split(separator: "|", maxSplits: 1)
            guard cells.count == 2 else { continue }
            rows[cells[0].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))] =
                String(cells[1])
        }
        return rows.mapValues { cell in
            rows.reduce(cell) { text, row in cell.contains("`\(row.key)`") ? text + row.value : text }
        }
    }

    /// Every object key in `value`, at any depth.
    static func keys(_ value: JSONValue) -> Set<String> {
        switch value {
        case .object(let members): members.reduce(into: Set(members.keys)) { $0.formUnion(keys($1.value)) }
        case .array(let items): items.reduce(into: Set<String>()) { $0.formUnion(keys($1)) }
        default: []
        }
    }

    @Test func everyKeyPrintedIsInItsRow() throws {
        let dir = try TemporaryDirectory()
        let rows = try Self.rows()
        var checked = Set<String>()
        @discardableResult func check(_ row: String, _ arguments: [String]) throws -> JSONValue {
            let document = try #require(rows[row], "docs/JSON.md has no row for '\(row)'")
            let output = try JSONValue.parse(Array(dir.zinc(arguments).utf8))
            let undocumented = Self.keys(output).filter { !document.contains("\"\($0)\"") }
            #expect(undocumented.isEmpty, "'\(row)' prints keys its row in docs/JSON.md does not name: \(undocumented.sorted())")
            checked.insert(row)
            return output
        }

        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try SampleContent.basicAdjectives(in: dir)
        try dir.write("spec.json", Array(#"{"small": ["+ *.json", "- *"]}"#.utf8))
        try dir.zinc(["update_flavorspec", "--catalog", "cat", "--path", "spec.json", "--name", "spec"])
        try check("update_bundle --json", ["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--json"])
        try dir.write("src/extra.json", SampleContent.text(5000))
        try check(
            "update_bundle --dry-run --json",
            ["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--dry-run", "--json"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--quiet"])
        try dir.write("src/extra.json", SampleContent.text(6000))
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "B", "--source", "src", "--quiet"])
        try check(
            "update_distro --json",
            ["update_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--version", "2", "--json"])
        try check("diff --json", ["diff", "--catalog", "cat", "--bundle", "B", "--from", "1", "--to", "3", "--json"])
        try check("diff --summary --json", ["diff", "--catalog", "cat", "--bundle", "B", "--summary", "--json"])
        try check("list --json", ["list", "--catalog", "cat", "--sizes", "--all", "--json"])
        try check("list_bundle --json", ["list_bundle", "--catalog", "cat", "--bundle", "B", "--version", "3", "--json"])
        try check("verify --json", ["verify", "--catalog", "cat", "--json"])
        try check("publish --json", ["publish", "--catalog", "cat", "--to", "live", "--json"])

        // A paused rollout with conditions, on a distribution of its own (the commands below
        // move master), and an install asked about: every key the document may have.
        let rollout = ["--catalog", "cat", "--bundle", "B", "--distro", "beta"]
        try dir.zinc(["update_distro", "--version", "2", "--create"] + rollout)
        try dir.zinc(
            ["rollout", "start", "--version", "3", "--steps", "10,50", "--every", "1h", "--app-version", ">=2", "--only", "cohort=qa"]
                + rollout)
        try dir.zinc(["rollout", "pause", "--note", "looking"] + rollout)
        try check(
            "rollout status --json",
            ["rollout", "status", "--install-id", "abc", "--attribute", "app-version=2.1", "--attribute", "cohort=qa", "--json"] + rollout)

        try dir.zinc(["repo_init", "--repo", "repo"])
        try dir.zinc(["track", "--repo", "repo", "--catalog", dir.at("live"), "--bundle", "B"])
        // A file, not stdout: made before the sync leaves nothing to download.
        try dir.zinc(["sync", "--repo", "repo", "--export-downloads", "downloads.json"])
        let downloads = try JSONValue.parse(dir.read("downloads.json"))
        let downloadsRow = try #require(rows["sync --export-downloads FILE"])
        #expect(Self.keys(downloads).filter { !downloadsRow.contains("\"\($0)\"") }.isEmpty, "\(downloads)")
        checked.insert("sync --export-downloads FILE")
        try check("sync --json", ["sync", "--repo", "repo", "--json"])
        try check("status --json", ["status", "--repo", "repo", "--json"])

        try check("delete_distro --json", ["delete_distro", "--catalog", "cat", "--bundle", "B", "--distro", "master", "--json"])
        try check("delete_bundle --json", ["delete_bundle", "--catalog", "cat", "--bundle", "B", "--versions", "1", "--json"])
        try check("delete_flavorspec --json", ["delete_flavorspec", "--catalog", "cat", "--name", "spec", "--json"])
        try check("prune --json", ["prune", "--catalog", "cat", "--keep-last", "1", "--dry-run", "--json"])
        try check("clean --json", ["clean", "--catalog", "cat", "--force", "--grace", "0", "--json"])

        // Each row of the table was run; a new row needs a line above.
        #expect(Set(rows.keys) == checked, "rows not checked: \(Set(rows.keys).subtracting(checked).sorted())")
    }
}
