/// RFC 3986 percent-encoding: every byte but the unreserved `A-Za-z0-9-._~` (and `/`
/// when asked) as `%XX`. What S3's signatures require and what makes any name safe
/// as a path segment or query value of a link.
package enum PercentEncoding {
    package static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                result += "/"
            default:
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)
}
