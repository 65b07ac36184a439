import Testing

@testable import ZincBrowser

/// The HTML builder escapes every interpolated string and nothing of the template.
@Suite struct HTMLTests {
    @Test func interpolatedTextIsEscaped() {
        let name = "<script>alert(1)</script>&\"'.png"
        let html: HTML = "<td title=\"\(name)\">\(name)</td>"
        #expect(
            html.markup == "<td title=\"&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;.png\">"
                + "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;.png</td>")
    }

    @Test func markupGoesInOnlyAsHTML() {
        let inner: HTML = "<b>\("a<b")</b>"
        let outer: HTML = "<p>\(inner)\([inner, inner])\(42)</p>"
        #expect(outer.markup == "<p><b>a&lt;b</b><b>a&lt;b</b><b>a&lt;b</b>42</p>")
    }

    @Test func addressesEncodeEverySpecialByte() {
        let urls = BrowserURL(base: "/~zinc")
        #expect(
            urls.file("cat", "B", 3, path: "a b/<é>&?.png")
                == "/~zinc/cat/B/3/file?path=a%20b%2F%3C%C3%A9%3E%26%3F.png")
        #expect(urls.version("c", "B", 2, flavor: nil) == "/~zinc/c/B/2/")
        #expect(urls.diff("c", "B", from: 1, to: 2, flavor: "phone") == "/~zinc/c/B/diff?from=1&to=2&flavor=phone")
    }
}
