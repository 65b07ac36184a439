import Foundation
import Testing
import ZincS3

/// The bounded XML reader of S3's answers: what S3 and its compatibles send reads as
/// expected, and anything malformed or hostile is refused (nil), never a crash.
@Suite struct XMLDocumentTests {
    typealias Element = ZincS3.XMLElement

    static func parse(_ text: String) -> Element? { Element.parse(Array(text.utf8)) }

    static let listing = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
          <Name>bucket</Name><Prefix>cat/</Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys>
          <IsTruncated>true</IsTruncated>
          <Contents>
            <Key>cat/catalog.json</Key><LastModified>2026-11-24T09:00:00.000Z</LastModified>
            <ETag>&quot;49f68a5c8493ec2c0bf489821c21fc3b&quot;</ETag><Size>112</Size>
            <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID><DisplayName>webfile</DisplayName></Owner>
            <StorageClass>STANDARD</StorageClass>
          </Contents>
          <Contents><Key>cat/objects/ab/cd/a&amp;b c.gz</Key><ETag>"0123456789abcdef0123456789abcdef-3"</ETag><Size>15728640</Size></Contents>
          <Contents><Key>cat/empty</Key><ETag/><Size>0</Size></Contents>
          <CommonPrefixes><Prefix>cat/manifests/</Prefix></CommonPrefixes>
          <CommonPrefixes><Prefix>cat/objects/</Prefix></CommonPrefixes>
          <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
        </ListBucketResult>

        """

    @Test func readsAListBucketResult() throws {
        let list = try #require(Self.parse(Self.listing))
        #expect(list.name == "ListBucketResult")
        #expect(list.value("IsTruncated") == "true")
        #expect(list.value("KeyCount") == "3")
        #expect(list.value("NextContinuationToken") == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
        let contents = list.children("Contents")
        #expect(contents.map { $0.value("Key") } == ["cat/catalog.json", "cat/objects/ab/cd/a&b c.gz", "cat/empty"])
        #expect(
            contents.map { $0.value("ETag") } == ["\"49f68a5c8493ec2c0bf489821c21fc3b\"", "\"0123456789abcdef0123456789abcdef-3\"", ""])
        #expect(contents.map { $0.value("Size") } == ["112", "15728640", "0"])
        #expect(contents[0].child("Owner")?.value("DisplayName") == "webfile")
        #expect(list.children("CommonPrefixes").map { $0.value("Prefix") } == ["cat/manifests/", "cat/objects/"])
        #expect(list.value("Missing") == nil && list.child("Missing") == nil && list.children("Missing").isEmpty)
        // A document is the root element only: its children are not found from above.
        #expect(list.value("Key") == nil)
    }

    @Test func readsErrorsAndMultipartAnswers() throws {
        let error = try #require(
            Self.parse(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message>\
                <BucketName>zinc-missing</BucketName><RequestId>4442587FB7D0A2F9</RequestId></Error>
                """))
        #expect(error.name == "Error" && error.value("Code") == "NoSuchBucket")
        #expect(error.value("Message") == "The specified bucket does not exist")
        #expect(error.value("BucketName") == "zinc-missing")

        let initiated = try #require(
            Self.parse(
                """
                <InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket>\
                <Key>cat/archives/B-1.tar</Key><UploadId>VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>\
                </InitiateMultipartUploadResult>
                """))
        #expect(initiated.value("UploadId") == "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA")

        // Namespace prefixes are dropped: `s3:Key` reads as `Key`.
        let uploads = try #require(
            Self.parse(
                """
                <s3:ListMultipartUploadsResult xmlns:s3="http://s3.amazonaws.com/doc/2006-03-01/">
                  <s3:Upload><s3:Key>cat/archives/B-1.tar</s3:Key><s3:UploadId>id-1</s3:UploadId>\
                <s3:Initiated>2026-11-24T09:00:00.000Z</s3:Initiated></s3:Upload>
                  <s3:Upload><s3:Key>cat/archives/B-2.tar</s3:Key><s3:UploadId>id-2</s3:UploadId></s3:Upload>
                  <s3:IsTruncated>false</s3:IsTruncated>
                </s3:ListMultipartUploadsResult>
                """))
        #expect(uploads.name == "ListMultipartUploadsResult")
        #expect(uploads.children("Upload").map { $0.value("UploadId") } == ["id-1", "id-2"])
        #expect(uploads.children("Upload").first?.value("Initiated") == "2026-11-24T09:00:00.000Z")
    }

    @Test func decodesEntitiesAndKeepsCDATALiteral() throws {
        let element = try #require(Self.parse("<Key>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#65;&#x42;&#x1F600;&#233;</Key>"))
        #expect(element.text == "<a> & \"b\" 'c' AB\u{1F600}é")
        // CDATA is taken as it is, entity-like text included, and joins the text around it.
        let cdata = try #require(Self.parse("<Key>x<![CDATA[<y>&amp;]]]]>z</Key>"))
        #expect(cdata.text == "x<y>&amp;]]z")
        let mixed = try #require(Self.parse("<A>one<!-- <B>ignored</B> --><B>two</B><?pi x?>three</A>"))
        #expect(mixed.text == "onethree" && mixed.children.map(\.name) == ["B"] && mixed.value("B") == "two")
        // Attributes are skipped, a '>' inside a quoted value included; self-closing tags are empty.
        let attributes = try #require(Self.parse(#"<A x="1>2" y='<z>'><B/><C a="b" /></A>"#))
        #expect(attributes.children.map(\.name) == ["B", "C"] && attributes.children.allSatisfy { $0.text.isEmpty })
        // A DOCTYPE and comments around the root are skipped; so is whitespace in a close tag.
        #expect(Self.parse("<!DOCTYPE x><!-- before --><A>v</A >\n<!-- after -->\n")?.text == "v")
        // Multi-byte UTF-8 passes through.
        #expect(Self.parse("<Key>données/日本.json</Key>")?.text == "données/日本.json")
    }

    @Test func nestsUpToItsBound() {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + "x" + String(repeating: "</a>", count: depth)
        }
        #expect(Self.parse(nested(32)) != nil)
        #expect(Self.parse(nested(33)) == nil)
        // Far beyond: refused at the bound, with no recursion that deep.
        #expect(Self.parse(nested(100_000)) == nil)
        #expect(Self.parse(String(repeating: "<a>", count: 200_000)) == nil)
    }

    @Test(arguments: [
        "", "   ", "text only", "<", "<>", "</a>", "<a>", "<a", "<a/", "<a></a", "<a></b>", "<a><b></a></b>", "<a></a></a>",
        "<a>x</a>trailing", "<a></a><b></b>", "<a b=\"unterminated></a>", "<a b='x></a>",
        "<a>&bogus;</a>", "<a>&amp</a>", "<a>&#;</a>", "<a>&#x;</a>", "<a>&#xZZ;</a>", "<a>&#-1;</a>", "<a>&#xFFFFFFFF;</a>",
        "<a>&#99999999999;</a>", "<a>&#xD800;</a>", "<a>&#x110000;</a>", "<a>&;</a>",
        "<![CDATA[x", "<a><![CDATA[x</a>", "<a><!-- x</a>", "<a><?pi</a>", "<?xml version=\"1.0\"", "<!-- only a comment -->",
        "<a><b>", "<a><b/>", "<a>\u{0}</b>",
    ])
    func refusesMalformedXML(_ text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func refusesTextThatIsNotUTF8() {
        #expect(Element.parse(Array("<Key>".utf8) + [0xFF, 0xFE] + Array("</Key>".utf8)) == nil)
        #expect(Element.parse(Array("<Key>".utf8) + [0xC3] + Array("</Key>".utf8)) == nil)
    }

    /// Every answer cut short (a dropped connection, a truncated body) is refused, at
    /// every length, and reading it never crashes.
    @Test func refusesEveryTruncation() throws {
        let bytes = Array(Self.listing.utf8)
        let end = try #require(Self.listing.range(of: "</ListBucketResult>")).upperBound.utf16Offset(in: Self.listing)
        for length in 0..<end {
            #expect(Element.parse(Array(bytes[..<length])) == nil, "a document cut at \(length) bytes was accepted")
        }
        #expect(Element.parse(bytes) != nil)
    }

    /// Bytes changed at random: whatever the result, no crash, and anything accepted
    /// still has the root's name or none at all.
    @Test func survivesRandomCorruption() {
        let original = Array(Self.listing.utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state & 0x7FFF_FFFF)
        }
        let alphabet = Array("<>/&;!?[]-\"'=x#".utf8) + [0, 0xFF]
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<(1 + next() % 4) {
                bytes[next() % bytes.count] = alphabet[next() % alphabet.count]
            }
            if let element = Element.parse(bytes) { #expect(!element.name.isEmpty) }
        }
    }

    @Test func readsALargeListing() throws {
        var text = "<ListBucketResult>"
        for i in 0..<10_000 { text += "<Contents><Key>cat/objects/\(i)</Key><Size>\(i)</Size></Contents>" }
        text += "</ListBucketResult>"
        let list = try #require(Self.parse(text))
        #expect(list.children("Contents").count == 10_000)
        #expect(list.children("Contents").last?.value("Key") == "cat/objects/9999")
    }
}
