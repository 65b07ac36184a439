import Testing

@testable import Zinc

@Suite struct JSONValueTests {
    @Test func encodesCompactWithSortedKeysAndUnescapedSlashes() {
        let value = JSONValue.object([
            "b": .array([.int(1), .int(2)]),
            "a/c": .string("x/y \"q\" é\n\u{01}"),
            "Z": .bool(true),
            "n": .null,
        ])
        #expect(
            String(decoding: value.encoded(), as: UTF8.self)
                == #"{"Z":true,"a/c":"x/y \"q\" é\n\u0001","b":[1,2],"n":null}"#)
    }

    @Test func sortsKeysByCodePointLikePython() {
        let value = JSONValue.object(["é": .int(1), "z": .int(2), "Z": .int(3), "_master": .int(4)])
        #expect(String(decoding: value.encoded(), as: UTF8.self) == #"{"Z":3,"_master":4,"z":2,"é":1}"#)
    }

    @Test func parsesWhatItWrites() throws {
        let value = JSONValue.object(["k": .array([.double(0.85), .int(-3), .string("ü")])])
        #expect(try JSONValue.parse(value.encoded()) == value)
    }

    @Test func reportsInvalidJSON() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Array("{\"a\":".utf8)) }
    }
}

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        #expect(
            try parse(#" { "a" : [1, -2, 3.5, 1e3, true, false, null, "x"] } "#)
                == .object([
                    "a": .array([.int(1), .int(-2), .double(3.5), .double(1000), .bool(true), .bool(false), .null, .string("x")])
                ]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", "-", "tru", "\"unterminated",
        "\"\\x\"", "\"\\ud800\"", "{\"a\":1} x", "{\"a\":1,\"a\":2}", "\"tab\there\"", "[1 2]",
    ])
    func refusesMalformedDocuments(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try parse(text) }
    }

    @Test func readsASCIIAndOtherUTF8AlikeWithOrWithoutEscapes() throws {
        #expect(
            try parse(#"["plain/ascii.png","é/ü 😀","\n é"]"#) == .array([.string("plain/ascii.png"), .string("é/ü 😀"), .string("\n é")]))
    }

    @Test func refusesInvalidUTF8AndExcessiveNesting() {
        // At the closing quote; past it in a string with escapes.
        let plain = #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(plain?.description == "invalid UTF-8 in a string at byte 3")
        let escaped = #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22]) }
        #expect(escaped?.description == "invalid UTF-8 in a string at byte 6")
        #expect(throws: JSONValue.ParseError.self) { try parse(String(repeating: "[", count: 10_000)) }
    }
}
