import Foundation
import Testing
import ZincCurl
import ZincTestSupport

/// The catalog browser of `zinc serve` in a real headless Chromium: pages load, links
/// lead where they say, images decode, hostile names stay text, the diff page counts
/// right. Serialized: one browser at a time is enough for two cores.
@Suite(.serialized) struct BrowserTests {
    let dir: TemporaryDirectory
    static let red = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAIAAADRv8uKAAAAK0lEQVR42u3NMQ0AAAgDsMmZfz2IQQYcTfo3056IWCwWi8VisVgsFov/xgu6J36M6lYAvAAAAABJRU5ErkJggg=="
    )!
    static let blue = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAADIAAAAUCAIAAABAqPnNAAAAK0lEQVR42mPQCLgzCBHDqLNGnTXqrFFnjTpr1Fmjzhp11qizRp016iz8CAD0VDBswCyr2wAAAABJRU5ErkJggg=="
    )!
    static let green = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mMQWWCDFTEMLQkAaCE8AQtW6c8AAAAASUVORK5CYII=")!
    static let hostileFile = "<img src=x onerror=\"window.zincXSS=1\">.png"

    /// Catalog folder `cat` (id com.example.app) under `root`, bundle B. Version 1:
    /// img/red.png (40×30), lesson.json, the hostile names; version 2: img/red.png is a
    /// 50×20 picture, lesson.json removed, notes.txt added. master went 1 -> 2, test is at 1.
    init() throws {
        dir = try TemporaryDirectory()
        try dir.write("src/img/red.png", [UInt8](Self.red))
        try dir.write("src/lesson.json", "{\"title\": \"Basic <Adjectives>\"}\n")
        try dir.write("src/" + Self.hostileFile, [UInt8](Self.green))
        try dir.write("src/<script>alert(1)</script>.png", [UInt8](Self.green))
        try zinc("create_catalog", "--id", "com.example.app", "--dest", "root/cat")
        try zinc("update_bundle", "--catalog", "root/cat", "--name", "B", "--source", "src")
        try dir.write("src/img/red.png", [UInt8](Self.blue))
        try FileManager.default.removeItem(atPath: dir.at("src/lesson.json"))
        try dir.write("src/notes.txt", "new notes")
        try zinc("update_bundle", "--catalog", "root/cat", "--name", "B", "--source", "src")
        try zinc("update_distro", "--catalog", "root/cat", "--id", "B", "--name", "master", "--version", "1")
        try zinc("update_distro", "--catalog", "root/cat", "--id", "B", "--name", "master", "--version", "2")
        try zinc("update_distro", "--catalog", "root/cat", "--id", "B", "--name", "test", "--version", "1")
    }

    var zinc: ZincRunner { ZincRunner(in: dir) }

    /// The browser, or nil (the test then records why) when Chromium is not installed:
    /// `make test` installs it, so CI always runs these tests.
    func browser() throws -> HeadlessChromium? {
        guard HeadlessChromium.executable != nil else {
            print("BrowserTests: skipped, chromium is not installed (make test installs it)")
            return nil
        }
        return try HeadlessChromium()
    }

    func text(_ chromium: HeadlessChromium, _ selector: String) throws -> String? {
        try chromium.evaluate("document.querySelector(\(String(reflecting: selector)))?.textContent") as? String
    }

    @Test func walksFromTheCatalogsToAFile() throws {
        guard let chromium = try browser() else { return }
        let server = try ServeProcess(arguments: ["serve", "--root", "root", "--port", "0"], in: dir.path, startupLines: 2)
        #expect(server.startupLines.last == "Browse the catalogs at \(server.url)~zinc/")
        try chromium.open(server.url + "~zinc/")
        #expect(try chromium.evaluate("document.title") as? String == "Catalogs · zinc")
        try chromium.click(link: "cat")
        #expect(try chromium.location() == server.url + "~zinc/cat/")
        try chromium.click(link: "B")
        #expect(try chromium.location() == server.url + "~zinc/cat/B/")
        // Newest first, each with its distributions and previous pointers.
        let versions = try chromium.evaluate(
            "[...document.querySelectorAll('#versions tr')].slice(1).map(r => r.cells[0].textContent + ':' + r.cells[1].textContent)")
        #expect(versions as? [String] == ["version 2:master", "version 1:_mastertest"])
        try chromium.click(link: "version 1")
        #expect(try text(chromium, "#file-count") == "4")
        // Every thumbnail decodes; the hostile names are text, nothing of them ran.
        let widths = try chromium.evaluate("[...document.querySelectorAll('img.thumb')].map(i => i.naturalWidth)") as? [Int]
        #expect(widths == [8, 8, 40])
        #expect(try chromium.evaluate("window.zincXSS === undefined && document.scripts.length === 0") as? Bool == true)
        let names =
            try chromium.evaluate("[...document.querySelectorAll('#files td:first-child')].map(td => td.textContent.trim())") as? [String]
        #expect(names?.contains(Self.hostileFile) == true)
        #expect(names?.contains("▸ <script>alert(1)</") == true)
        try chromium.click(link: "red.png")
        #expect(try chromium.evaluate("document.getElementById('preview').naturalWidth") as? Int == 40)
        try chromium.click(link: "open")
        #expect(try chromium.evaluate("document.contentType") as? String == "image/png")
        try chromium.open(server.url + "~zinc/cat/B/1/view?path=lesson.json")
        #expect(try text(chromium, "#preview") == "{\"title\": \"Basic <Adjectives>\"}\n")
        // The file links are relative: they work from an address typed without its slash too.
        try chromium.open(server.url + "~zinc/cat/B/1")
        try chromium.click(link: "red.png")
        #expect(try chromium.location() == server.url + "~zinc/cat/B/1/view?path=img%2Fred.png")
    }

    @Test func theDiffPageCountsAndShowsChangedImagesSideBySide() throws {
        guard let chromium = try browser() else { return }
        let server = try ServeProcess(catalog: "root/cat", in: dir.path)
        try chromium.open(server.url + "~zinc/com.example.app/B/")
        try chromium.click(link: "changes from 1")
        #expect(try chromium.location() == server.url + "~zinc/com.example.app/B/diff?from=1&to=2")
        let counts = try ["added", "removed", "changed", "unchanged"].map { try text(chromium, "#\($0)-count") }
        #expect(counts == ["1", "1", "1", "2"])
        let pair = try chromium.evaluate("[...document.querySelectorAll('.pair img')].map(i => i.naturalWidth)") as? [Int]
        #expect(pair == [40, 50])
        // The cost chart: one row per strategy, sync's choice marked.
        let strategies =
            try chromium.evaluate("[...document.querySelectorAll('#costs tr.bars td:first-child')].map(td => td.textContent)") as? [String]
        #expect(strategies?.count == 3)
        #expect(strategies?.filter { $0.hasSuffix("✓") }.count == 1)
    }

    @Test func badAddressesGetAClearPageAndTheFlagTurnsThePagesOff() throws {
        let server = try ServeProcess(catalog: "root/cat", in: dir.path)
        let client = HTTPClient()
        for (path, status) in [
            ("~zinc/nope/", 404), ("~zinc/com.example.app/B/9/", 404),
            ("~zinc/com.example.app/B/1/file?path=..%2F..%2Fcatalog.json", 404),
            ("~zinc/com.example.app/B/x/", 400), ("~zinc/com.example.app/B/diff?from=1", 400),
            ("~zinc/com.example.app/B%2F..%2F/", 400),
        ] {
            let response = try client.collect(HTTPRequest(.get, server.url + path), limit: 1 << 20)
            #expect(response.head.status == status, "\(path)")
            #expect(response.head["Content-Type"] == "text/html; charset=utf-8", "\(path)")
        }
        let off = try ServeProcess(arguments: ["serve", "--catalog", "root/cat", "--port", "0", "--no-browser"], in: dir.path)
        #expect(try client.collect(HTTPRequest(.get, off.url + "~zinc/"), limit: 1 << 20).head.status == 404)
        #expect(try client.collect(HTTPRequest(.get, off.url + "catalog.json"), limit: 1 << 20).head.status == 200)
    }
}
