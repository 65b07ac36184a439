import Foundation
import Testing
import ZincBrowser
import ZincServer
import ZincTestSupport

/// The version and file pages give a gzipped file's content size from the version's
/// sizes file, as `list_bundle --sizes` does, and say which files lack one only for a
/// version imported before sizes files.
@Suite struct ContentSizePageTests {
    let dir: TemporaryDirectory
    let browser: CatalogBrowser

    init() throws {
        dir = try TemporaryDirectory()
        // 12,000 bytes of one repeated line: stored gzipped.
        try dir.write("src/notes.txt", String(repeating: "a line of notes\n", count: 750))
        for arguments in [
            ["create_catalog", "--id", "com.example.app", "--dest", "root/cat"],
            ["update_bundle", "--catalog", "root/cat", "--bundle", "B", "--source", "src"],
        ] {
            try dir.zinc.succeeds(arguments)
        }
        browser = CatalogBrowser(source: .folder(dir.at("root")))
    }

    private func page(_ segments: [String], query: [String: String] = [:]) throws -> String {
        let response = browser.respond(to: DynamicRequest(segments: segments, query: query))
        #expect(response.status == 200)
        guard case .text(let html) = response.body else { throw CocoaError(.fileReadUnknown) }
        return html
    }

    @Test func aGzippedFileShowsItsContentSize() throws {
        #expect(dir.exists("root/cat/sizes/B-1.json.gz"))
        let version = try page(["cat", "B", "1"])
        #expect(version.contains("<td class=\"num\">12.0 kB</td>"), "\(version)")
        #expect(!version.contains("—") && !version.contains("without 1 file"))
        #expect(try page(["cat", "B", "1", "view"], query: ["path": "notes.txt"]).contains("12.0 kB · stored gz"))
    }

    @Test func aVersionWithoutSizesSaysWhichFilesItLeavesOut() throws {
        try FileManager.default.removeItem(atPath: dir.at("root/cat/sizes/B-1.json.gz"))
        let version = try page(["cat", "B", "1"])
        #expect(version.contains("—") && version.contains("without 1 file stored gzipped before sizes were recorded"))
    }
}
