/// The path of a request target, decoded into segments that are safe to join below a directory.
///
/// Every segment is checked after percent-decoding, so `%2e%2e`, `%2f` and `%00` get the same
/// treatment as their literal forms. Anything that could step out of the served directory or
/// reach a hidden file (the writer's `.zinc.lock`, temporary files being renamed into place) is
/// rejected here, before the file system is touched; `ServedRoot` then checks symlinks.
struct RequestPath: Equatable {
    enum Rejection: Error, Equatable {
        /// Not a valid origin-form target or broken percent-encoding: 400.
        case malformed
        /// A well-formed path that can never name a served file: 404, as for a missing file, so
        /// that probing reveals nothing.
        case notServed
    }

    let segments: [String]

    init(target: String) throws(Rejection) {
        guard target.hasPrefix("/") else { throw .malformed }
        let path = target.prefix { $0 != "?" && $0 != "#" }
        var segments: [String] = []
        for rawSegment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let bytes = try Self.percentDecoded(rawSegment)
            // Empty segments are `//` or a trailing slash: a directory, and directories are not listed.
            guard let first = bytes.first, first != UInt8(ascii: ".") else { throw .notServed }
            guard !bytes.contains(where: Self.isForbidden) else { throw .notServed }
            let segment = String(decoding: bytes, as: UTF8.self)
            guard segment.utf8.elementsEqual(bytes) else { throw .notServed }
            segments.append(segment)
        }
        self.segments = segments
    }

    /// Separators (a decoded `/` or a `\`) would split a segment after the checks above, and
    /// control bytes (NUL above all) truncate or confuse paths in system calls.
    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
    }

    static func percentDecoded(_ segment: Substring) throws(Rejection) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.utf8.count)
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .malformed
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
