import Foundation
import Testing
import Zinc
import ZincBrowser
import ZincServer
import ZincTestSupport

/// The catalog page and the bundle page show each live rollout (distribution, state,
/// control and candidate, the share now, the steps to come, conditions, serial and
/// expiry, the last change), every field from the file escaped, and none once it is over.
@Suite struct RolloutTableTests {
    let dir: TemporaryDirectory
    let browser: CatalogBrowser
    static let hostile = "<script>alert(1)</script>"
    static let target = ["--catalog", "root/cat", "--bundle", "B", "--distro", "master"]

    /// Bundle B at versions 1 and 2, master on 1.
    init() throws {
        dir = try TemporaryDirectory()
        browser = CatalogBrowser(source: .folder(dir.at("root")))
        try SampleContent.basicAdjectives(in: dir)
        try zinc(["create_catalog", "--id", "com.example.app", "--dest", "root/cat"])
        try zinc(["update_bundle", "--catalog", "root/cat", "--bundle", "B", "--source", "src"])
        try zinc(["update_distro", "--catalog", "root/cat", "--bundle", "B", "--distro", "master", "--version", "1"])
        try dir.write("src/new.txt", "level 2")
        try zinc(["update_bundle", "--catalog", "root/cat", "--bundle", "B", "--source", "src"])
    }

    var zinc: ZincRunner { ZincRunner(in: dir, silentStderr: false) }

    func page(_ segments: [String]) throws -> String {
        let response = browser.respond(to: DynamicRequest(segments: segments, query: [:]))
        #expect(response.status == 200)
        guard case .text(let html) = response.body else { throw CocoaError(.fileReadUnknown) }
        return html
    }

    /// The rollout as its file holds it now.
    func rollout() throws -> Rollout {
        let path = "root/cat/" + RolloutFile.path(bundle: "B", distro: "master")
        return try RolloutFile.parse(dir.read(path), path: path)
    }

    /// The row's cells from the distribution's on, as markup; `last` the last change's
    /// action and actor, `note` what follows its time.
    func cells(state: String, share: String, steps: String, conditions: String, last: String, note: String = "") throws -> String {
        let rollout = try rollout()
        return """
            <td><span class="badge">master</span></td><td>\(state)</td><td><a href="/~zinc/cat/B/1/">1</a> → \
            <a href="/~zinc/cat/B/2/">2</a> <a class="muted" href="/~zinc/cat/B/diff?from=1&amp;to=2">changes</a></td>\
            <td class="num">\(share)</td><td>\(steps)</td><td>\(conditions)</td><td>\(rollout.serial)<br><span class="muted">\
            unsigned, expires \(UTCMoment.describe(rollout.expiresAt))</span></td>\
            <td>\(last) at \(UTCMoment.describe(rollout.signedAt))\(note)</td></tr>
            """
    }

    @Test func bothPagesShowALiveRolloutWithItsFieldsEscaped() throws {
        try zinc(
            [
                "rollout", "start", "--version", "2", "--steps", "10,50", "--every", "24h", "--platform", "ios", "--only",
                "cohort=" + Self.hostile, "--actor", "<b>alice</b>", "--note", Self.hostile + " & more",
            ] + Self.target)
        let next = try rollout().steps[1].time
        let row = try cells(
            state: "active", share: "10.00%", steps: "50.00% from \(UTCMoment.describe(next))<br>",
            conditions: "platform ios<br>cohort=&lt;script&gt;alert(1)&lt;/script&gt;<br>",
            last: "start by &lt;b&gt;alice&lt;/b&gt;", note: ": &lt;script&gt;alert(1)&lt;/script&gt; &amp; more")
        let bundle = try page(["cat", "B"])
        #expect(
            bundle.contains(
                "<h2>Rollouts</h2><table id=\"rollouts\"><tr><th>Distribution</th><th>State</th><th>Versions</th>"
                    + "<th class=\"num\">Now</th><th>Steps to come</th><th>Conditions</th><th>Serial</th><th>Last change</th></tr>"
                    + "<tr>" + row + "</table>"), "\(bundle)")
        let catalog = try page(["cat"])
        #expect(catalog.contains("<tr><td><a href=\"/~zinc/cat/B/\">B</a></td>" + row), "\(catalog)")
        for html in [bundle, catalog] {
            #expect(!html.contains(Self.hostile) && !html.contains("<b>"), "only escaped text from the file")
        }
    }

    @Test func aPausedAndAHaltedRolloutSayWhereTheyStandAndACompleteOneIsGone() throws {
        try zinc(["rollout", "start", "--version", "2", "--steps", "10,50", "--every", "24h", "--actor", "bob"] + Self.target)
        try zinc(["rollout", "pause", "--actor", "bob"] + Self.target)
        let paused = try rollout()
        #expect(
            try page(["cat", "B"]).contains(
                try cells(
                    state: "paused since \(UTCMoment.describe(paused.pausedAt!))", share: "10.00%",
                    steps: "50.00% from \(UTCMoment.describe(paused.steps[1].time))<br><span class=\"muted\">once resumed</span>",
                    conditions: "<span class=\"muted\">every install</span>", last: "pause by bob")))
        try zinc(["rollout", "halt", "--actor", "bob"] + Self.target)
        #expect(
            try page(["cat", "B"]).contains(
                try cells(
                    state: "halted", share: "0.00%", steps: "<span class=\"muted\">none</span>",
                    conditions: "<span class=\"muted\">every install</span>", last: "halt by bob")))
        try zinc(["rollout", "complete", "--actor", "bob"] + Self.target)
        for segments in [["cat", "B"], ["cat"]] { #expect(!(try page(segments)).contains("Rollouts"), "\(segments)") }
    }

    @Test func anUnreadableRolloutFileShowsItsErrorAndTheRestOfThePage() throws {
        try dir.write("root/cat/" + RolloutFile.path(bundle: "B", distro: "master"), "not a rollout")
        let catalog = try page(["cat"])
        #expect(catalog.contains("<h2>Rollouts</h2><p class=\"error\">") && catalog.contains("<a href=\"/~zinc/cat/B/\">B</a>"))
        #expect(try page(["cat", "B"]).contains("<table id=\"versions\">"))
    }
}
