import Testing

@testable import Zinc

/// `JSONValueEncoder`: the one way a `--json` report becomes a `JSONValue`, so what a
/// synthesized `Encodable` writes must be what the reports wrote by hand.
@Suite struct JSONValueEncoderTests {
    struct Report: Encodable {
        let name: String
        let count: Int
        let bytes: Int64
        let small: UInt8
        let seconds: Double
        let ok: Bool
        let flavor: String?
        let versions: [Int]
        let nested: [String: Int]

        enum CodingKeys: String, CodingKey {
            case name, count, bytes, small, seconds, ok, flavor, versions, nested
        }
    }

    /// Keeps `flavor` as an explicit null, and flattens `extra`'s keys into its object.
    struct Flattened: Encodable {
        let flavor: String?
        let extra: Report

        enum CodingKeys: String, CodingKey { case flavor }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(flavor, forKey: .flavor)
            try extra.encode(to: encoder)
        }
    }

    let report = Report(
        name: "B", count: 3, bytes: 1 << 40, small: 7, seconds: 1.5, ok: true, flavor: nil, versions: [2, 1],
        nested: ["a": 1])

    @Test func synthesizedEncodingGivesTheValuesKinds() throws {
        #expect(
            try JSONValueEncoder().encode(report)
                == .object([
                    "name": .string("B"), "count": .int(3), "bytes": .int(1 << 40), "small": .int(7), "seconds": .double(1.5),
                    "ok": .bool(true), "versions": .array([.int(2), .int(1)]), "nested": .object(["a": .int(1)]),
                ]))
    }

    @Test func wholeDoublesStayDoublesAndIntegersStayIntegers() throws {
        let value = try JSONValueEncoder().encode(["whole": 2.0, "tenth": 92.5])
        #expect(String(decoding: value.encoded(), as: UTF8.self) == #"{"tenth":92.5,"whole":2.0}"#)
        #expect(try JSONValueEncoder().encode([Int64.max]) == .array([.int(.max)]))
    }

    @Test func anExplicitNilIsANullAndAnotherValueCanBeFlattenedIn() throws {
        guard case .object(let members) = try JSONValueEncoder().encode(Flattened(flavor: nil, extra: report)) else {
            Issue.record("not an object")
            return
        }
        #expect(members["flavor"] == .null)
        #expect(members["name"] == .string("B"))
        #expect(members.count == 9)
    }

    @Test func anUnsignedValueBeyondInt64Throws() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
    }

    @Test func aJSONValueEncodesAsItself() throws {
        let document = JSONValue.object([
            "a": .array([.null, .bool(false), .int(-1), .double(0.25), .string("x")]), "b": .object([:]), "c": .array([]),
        ])
        #expect(try JSONValueEncoder().encode(document) == document)
    }

    @Test func aValueThatEncodesNothingIsAnEmptyObject() throws {
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(try JSONValueEncoder().encode(Nothing()) == .object([:]))
    }

    @Test func snakeCaseNamesTheKeysOfEnumsButNotADictionarysKeysOrADocumentsMembers() throws {
        struct Report: Encodable {
            let bytesRead: Int
            let keyID: String
            let newObjectBytes: Int
            let sourceURLPath: String
            let files: [String: Int]
            let document: JSONValue
        }
        let report = Report(
            bytesRead: 1, keyID: "k", newObjectBytes: 2, sourceURLPath: "p", files: ["Art/heroSkin.png": 3],
            document: .object(["fileCount": .int(4)]))
        #expect(
            try JSONValueEncoder(keys: .snakeCase).encode(report)
                == .object([
                    "bytes_read": .int(1), "key_id": .string("k"), "new_object_bytes": .int(2), "source_url_path": .string("p"),
                    "files": .object(["Art/heroSkin.png": .int(3)]), "document": .object(["fileCount": .int(4)]),
                ]))
    }
}
