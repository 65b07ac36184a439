/// The naming rules of FORMAT.md ("Names" and manifest paths). Names end up in file
/// names and URLs, so anything that could change a path's meaning is refused.
package enum Names {
    /// Refuses a catalog id clients could not use in a folder name or URL.
    package static func validateCatalogID(_ id: String) throws {
        guard !id.isEmpty else { throw ZincError.invalidName(kind: "catalog id", value: id, reason: "it is empty") }
        let allowed = id.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "." || $0 == "_" || $0 == "-"
        }
        guard allowed else {
            throw ZincError.invalidName(
                kind: "catalog id", value: id,
                reason: "only letters, digits, '.', '_' and '-' are allowed")
        }
    }

    /// Refuses a bundle name that could change the meaning of the paths built from it.
    package static func validateBundleName(_ name: String) throws {
        try validateCommon(kind: "bundle name", name)
        if name.hasPrefix(".") {
            throw ZincError.invalidName(kind: "bundle name", value: name, reason: "it must not start with '.'")
        }
    }

    /// Why a valid bundle name may still break a client in use, or nil. Such a name is
    /// imported (the format allows it, and catalogs already hold some) but the person
    /// importing it is told: JavaZinc, the Android client, crashes on its second start
    /// once it has tracked a bundle whose name contains '.'.
    package static func clientConcern(bundleName name: String) -> String? {
        guard name.contains(".") else { return nil }
        return "bundle name '\(printable(name))' contains '.': JavaZinc (the Android client) crashes on its "
            + "second start after tracking such a bundle; a name without '.' works with every client"
    }

    /// Refuses a distribution name, including one starting with `_` (kept for the previous
    /// version of a distribution).
    package static func validateDistroName(_ name: String) throws {
        try validateCommon(kind: "distribution name", name)
        if name.hasPrefix("_") {
            throw ZincError.invalidName(
                kind: "distribution name", value: name,
                reason: "names starting with '_' are reserved for previous-distro pointers")
        }
    }

    /// A key of an index's `distributions`: a distro name, or `_` and a distro name
    /// (the previous-version pointer).
    package static func validateDistroKey(_ key: String) throws {
        try validateDistroName(key.hasPrefix("_") ? String(key.dropFirst()) : key)
    }

    /// Runs the checks of a name read from the file at `path`, so that the error names
    /// the file as well as the value: the name of a damaged or hostile catalog file is
    /// refused there, before any path is built from it.
    package static func checked(in path: String, _ validate: () throws -> Void) throws {
        do { try validate() } catch let error as ZincError {
            guard error.code == .invalidName, let reason = error.reason else { throw error }
            throw ZincError.corruptFile(path: path, reason: reason)
        }
    }

    /// A value shown in a message with its control characters escaped, so that a
    /// hostile name cannot rewrite the terminal it is printed on.
    package static func printable(_ value: String) -> String {
        value.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }

    /// Refuses a flavor (or stored flavorspec) name.
    package static func validateFlavorName(_ name: String) throws {
        try validateCommon(kind: "flavor name", name)
    }

    private static func validateCommon(kind: String, _ name: String) throws {
        guard !name.isEmpty else { throw ZincError.invalidName(kind: kind, value: name, reason: "it is empty") }
        if let bad = name.unicodeScalars.first(where: { $0 == "/" || $0 == "\\" || $0 == "~" || isControl($0) }) {
            let shown = isControl(bad) ? "a control character" : "'\(bad)'"
            throw ZincError.invalidName(
                kind: kind, value: name,
                reason: "it contains \(shown) (a name may hold any character but slashes, '~' and control characters)")
        }
    }

    /// The control characters no name, path or header value Zinc handles may hold (C0, DEL, C1).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Manifest paths: relative, `/`-separated, no empty, `.` or `..` component,
    /// no control characters. A reader enforces this too: a manifest is data from a
    /// server and must never steer a write outside its destination.
    package static func validateRelativePath(_ path: String) throws {
        var path = path
        if let reason = path.withUTF8({ relativePathProblem(utf8: $0) }) { throw ZincError.invalidPath(path, reason: reason) }
    }

    /// Why the UTF-8 bytes of a path break `validateRelativePath`'s rules, or nil when they
    /// keep them. One pass over the bytes, no string made: every manifest entry passes
    /// here, on every import, sync and verify, and a client's tables check every path again.
    /// A control character is reported before a bad component, wherever each is.
    package static func relativePathProblem(utf8 path: UnsafeBufferPointer<UInt8>) -> String? {
        guard !path.isEmpty else { return "it is empty" }
        if path[0] == UInt8(ascii: "/") { return "it is absolute" }
        var component: String?
        var length = 0
        var dots = 0
        var previous: UInt8 = 0
        for byte in path {
            // C1 controls (U+0080...U+009F) are 0xC2 0x80...0x9F in UTF-8.
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) {
                return "it contains a control character"
            }
            previous = byte
            if byte == UInt8(ascii: "/") {
                if component == nil { component = componentProblem(length: length, dots: dots) }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return component ?? componentProblem(length: length, dots: dots)
    }

    /// Why a path component of `length` bytes, `dots` of them '.', is refused, or nil.
    private static func componentProblem(length: Int, dots: Int) -> String? {
        if length == 0 { return "it has an empty component" }
        if dots == length && length <= 2 { return "it has a '\(String(repeating: ".", count: dots))' component" }
        return nil
    }

    /// Whether `value` is 40 lowercase hexadecimal digits.
    package static func isSHA1(_ value: String) -> Bool {
        isSHA1(utf8: value.utf8)
    }

    /// `isSHA1` for UTF-8 bytes: 40 lowercase hex digits.
    static func isSHA1(utf8: some Collection<UInt8>) -> Bool {
        utf8.count == 40 && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
