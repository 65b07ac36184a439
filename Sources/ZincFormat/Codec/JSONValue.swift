#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON document as plain values. Zinc parses into this first (with `JSONParser`)
/// and validates by hand, so a foreign or damaged file gets an error that names the
/// key at fault, and writes from it with its own encoder, so output bytes never depend
/// on Foundation's formatting choices.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why bytes are not a JSON document, and where.
    package struct ParseError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Parses one JSON document (UTF-8), refusing anything after it.
    package static func parse(_ data: [UInt8]) throws -> JSONValue {
        try JSONParser.parse(data)
    }

    /// Compact UTF-8 with keys sorted by code point (as Python's `sort_keys`) and `/`
    /// left unescaped.
    package func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    /// Indented, still key-sorted: for people reading `dump_index` output.
    package func prettyEncoded() -> [UInt8] {
        var out = [UInt8]()
        write(to: &out, indent: 0, pretty: true)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private func write(to out: inout [UInt8], indent: Int = 0, pretty: Bool = false) {
        func newline(_ level: Int) {
            guard pretty else { return }
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
        switch self {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case .int(let i): out.append(contentsOf: Array(String(i).utf8))
        case .double(let d): out.append(contentsOf: Array(Self.format(d).utf8))
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(contentsOf: pretty ? Array(",".utf8) : [UInt8(ascii: ",")]) }
                newline(indent + 1)
                item.write(to: &out, indent: indent + 1, pretty: pretty)
            }
            if !items.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted(by: Self.keyPrecedes)
            for (i, key) in keys.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                Self.writeString(key, to: &out)
                out.append(contentsOf: pretty ? Array(": ".utf8) : [UInt8(ascii: ":")])
                members[key]!.write(to: &out, indent: indent + 1, pretty: pretty)
            }
            if !keys.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func format(_ d: Double) -> String {
        // Whole numbers keep a ".0" (as printf's "%.1f" wrote them), so they read back as doubles.
        if d == d.rounded(), abs(d) < 1e15 { return (d.sign == .minus ? "-" : "") + String(Int64(d.magnitude)) + ".0" }
        return "\(d)"
    }

    /// The order of an object's keys in encoded JSON.
    package static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    package static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: Array("\\n".utf8))
            case 0x0D: out.append(contentsOf: Array("\\r".utf8))
            case 0x09: out.append(contentsOf: Array("\\t".utf8))
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    package var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// Integers, and doubles that are whole numbers (some writers emit `2.0`).
    package var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e15: return Int64(d)
        default: return nil
        }
    }
    package var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
}
