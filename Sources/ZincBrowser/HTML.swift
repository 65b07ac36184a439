/// A piece of HTML built by string interpolation that escapes by default: the literal
/// text of a template (written in the source) is markup, every interpolated `String` is
/// escaped as text, and only another `HTML` value goes in as markup. A name read from a
/// catalog therefore cannot become markup however it is interpolated:
///
///     let row: HTML = "<td>\(file.path)</td>"   // `<script>` shows as text
public struct HTML: ExpressibleByStringInterpolation, Sendable {
    public private(set) var markup: String

    public init(stringLiteral literal: String) {
        markup = literal
    }

    public init(stringInterpolation: Interpolation) {
        markup = stringInterpolation.markup
    }

    public init() {
        markup = ""
    }

    public mutating func append(_ html: HTML) {
        markup += html.markup
    }

    public mutating func reserveCapacity(_ bytes: Int) {
        markup.reserveCapacity(bytes)
    }

    /// Markup joined from pieces, for lists of rows.
    public init(joining pieces: some Sequence<HTML>) {
        markup = ""
        for piece in pieces { markup += piece.markup }
    }

    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// The template's own text, written in the source: markup.
        public mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text from anywhere: escaped, safe in element content and in quoted attributes.
        public mutating func appendInterpolation(_ text: String) {
            HTML.escape(text, into: &markup)
        }

        public mutating func appendInterpolation(_ html: HTML) {
            markup += html.markup
        }

        public mutating func appendInterpolation(_ pieces: [HTML]) {
            for piece in pieces { markup += piece.markup }
        }

        public mutating func appendInterpolation(_ number: some BinaryInteger) {
            markup += String(number)
        }
    }

    /// `&`, `<`, `>`, `"` and `'` as character references; everything else as is.
    static func escape(_ text: String, into markup: inout String) {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            markup += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": markup += "&amp;"
            case "<": markup += "&lt;"
            case ">": markup += "&gt;"
            case "\"": markup += "&quot;"
            case "'": markup += "&#39;"
            default: markup.unicodeScalars.append(scalar)
            }
        }
    }
}
