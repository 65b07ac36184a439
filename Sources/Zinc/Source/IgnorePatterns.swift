#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which paths of a source folder an import leaves out, in gitignore's syntax: the
/// default list (version-control folders, desktop clutter, editor backups), then the
/// source's `.zincignore`, then `--exclude` patterns; a later pattern overrides an
/// earlier one, and `!PATTERN` takes a path back in.
///
/// The rules are gitignore's: `#` starts a comment and blank lines are skipped; a
/// trailing `/` matches folders only; a pattern with a `/` at its start or in its middle
/// is matched against the whole path from the source root, any other against the name
/// at any depth; `*` and `?` match within one name, `[a-z]` (or `[!a-z]`) one character
/// of a class, `**` any number of folders (`**/x`, `a/**/x`, `a/**`); `\` quotes the next
/// character. An excluded folder is not walked, so nothing under it can be taken back.
public struct IgnorePatterns: Sendable, Equatable {
    /// Left out unless the user turns the list off: never content, often present.
    public static let defaults = [
        ".git/", ".svn/", ".hg/", ".DS_Store", "Thumbs.db", "desktop.ini", "*~", ".*.swp",
        fileName,
    ]
    /// The ignore file at the root of a source folder.
    public static let fileName = ".zincignore"

    struct Rule: Sendable, Equatable {
        let pattern: [UInt8]
        let negated: Bool
        let foldersOnly: Bool
        /// Matched against the whole relative path, not just the name.
        let anchored: Bool
    }

    private(set) var rules: [Rule] = []

    public init() {}

    /// Adds patterns, one per line as in an ignore file; `source` names them in errors.
    public mutating func add(lines text: String, source: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            try add(String(line.hasSuffix("\r") ? line.dropLast() : line), source: "\(source):\(number + 1)")
        }
    }

    /// Adds one pattern (a comment or blank line adds nothing).
    public mutating func add(_ line: String, source: String) throws {
        var bytes = Array(line.utf8)
        // Trailing spaces end a pattern unless quoted with a backslash.
        while bytes.last == 0x20, !(bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "\\")) { bytes.removeLast() }
        guard let first = bytes.first, first != UInt8(ascii: "#") else { return }
        var negated = false
        if first == UInt8(ascii: "!") {
            negated = true
            bytes.removeFirst()
        } else if first == UInt8(ascii: "\\"), bytes.count > 1, bytes[1] == UInt8(ascii: "#") || bytes[1] == UInt8(ascii: "!") {
            bytes.removeFirst()
        }
        var foldersOnly = false
        if bytes.last == UInt8(ascii: "/") {
            foldersOnly = true
            bytes.removeLast()
        }
        let anchored = bytes.contains(UInt8(ascii: "/"))
        if bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
        guard !bytes.isEmpty, bytes.contains(where: { $0 != UInt8(ascii: "/") }) else {
            throw ZincError.invalidPattern(source: source, pattern: line, reason: "is not a pattern")
        }
        guard Self.classesAreClosed(bytes) else {
            throw ZincError.invalidPattern(source: source, pattern: line, reason: "has a '[' without its ']'")
        }
        rules.append(Rule(pattern: bytes, negated: negated, foldersOnly: foldersOnly, anchored: anchored))
    }

    public var isEmpty: Bool { rules.isEmpty }

    /// What an import of `root` leaves out: the defaults (unless `defaults` is false),
    /// then the root's `.zincignore` if there is one, then `excludes`.
    public static func forSource(_ root: String, defaults: Bool, excludes: [String]) throws -> IgnorePatterns {
        var patterns = IgnorePatterns()
        if defaults {
            for pattern in Self.defaults { try patterns.add(pattern, source: "the default ignore list") }
        }
        let ignoreFile = root + "/" + fileName
        if let bytes = try readIgnoreFile(ignoreFile) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw ZincError.sourceProblem(path: ignoreFile, reason: "not UTF-8 text")
            }
            try patterns.add(lines: text, source: ignoreFile)
        }
        for pattern in excludes { try patterns.add(pattern, source: "--exclude") }
        return patterns
    }

    /// The ignore file's bytes, nil when there is none.
    private static func readIgnoreFile(_ path: String) throws -> [UInt8]? {
        let limit = 1 << 20
        let file: PosixFile
        do {
            file = try PosixFile.openForReading(path)
        } catch let error as ZincError where error.errno == ENOENT || error.errno == ENOTDIR {
            return nil  // no ignore file (or no source folder, which the scan reports)
        }
        let bytes = try file.readAll(upTo: limit + 1)
        guard bytes.count <= limit else { throw ZincError.sourceProblem(path: path, reason: "larger than 1 MiB") }
        return bytes
    }

    /// Whether the file or folder at `path` (relative to the source root, `/`-separated)
    /// is left out. The last rule that matches decides.
    public func excludes(_ path: String, isFolder: Bool) -> Bool {
        guard !rules.isEmpty else { return false }
        return excludes(bytes: Array(path.utf8), isFolder: isFolder)
    }

    /// `excludes` for the entry `name` (its bytes, which need not be UTF-8) of the folder
    /// `folder` (relative to the source root; empty for the root): a name the walk would
    /// refuse can still be left out.
    func excludes(_ name: ArraySlice<UInt8>, in folder: String, isFolder: Bool) -> Bool {
        guard !rules.isEmpty else { return false }
        return excludes(bytes: folder.isEmpty ? Array(name) : Array(folder.utf8) + [Self.slash] + name, isFolder: isFolder)
    }

    private func excludes(bytes full: [UInt8], isFolder: Bool) -> Bool {
        let name = full.lastIndex(of: UInt8(ascii: "/")).map { full[($0 + 1)...] } ?? full[...]
        for rule in rules.reversed() where isFolder || !rule.foldersOnly {
            if Self.matches(rule.pattern[...], rule.anchored ? full[...] : name) { return !rule.negated }
        }
        return false
    }

    // MARK: Matching

    private static let star = UInt8(ascii: "*"), question = UInt8(ascii: "?"), bracket = UInt8(ascii: "[")
    private static let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")

    /// Glob matching on UTF-8 bytes. Backtracks only at stars, so ordinary patterns cost
    /// a pass over the path.
    static func matches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex
        var t = text.startIndex
        while p < pattern.endIndex {
            let c = pattern[p]
            if c == star {
                if p + 1 < pattern.endIndex, pattern[p + 1] == star { return matchesDoubleStar(pattern[(p + 2)...], text[t...]) }
                // One star: any run of non-slash bytes; the shortest that lets the rest match.
                let rest = pattern[(p + 1)...]
                var end = t
                while true {
                    if matches(rest, text[end...]) { return true }
                    guard end < text.endIndex, text[end] != slash else { return false }
                    end += 1
                }
            }
            guard t < text.endIndex else { return false }
            switch c {
            case question:
                guard text[t] != slash else { return false }
                p += 1
            case bracket:
                guard let (matched, next) = matchClass(pattern, at: p, text[t]), matched else { return false }
                p = next
            case backslash where p + 1 < pattern.endIndex:
                guard pattern[p + 1] == text[t] else { return false }
                p += 2
            default:
                guard c == text[t] else { return false }
                p += 1
            }
            t += 1
        }
        return t == text.endIndex
    }

    /// `**` followed by `rest`: `**/x` matches x in any folder (or none), `**` at the end
    /// matches everything below, `**` elsewhere any bytes, slashes included.
    private static func matchesDoubleStar(_ rest: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        if rest.isEmpty { return true }
        if rest.first == slash {
            let afterSlash = rest.dropFirst()
            var start = text.startIndex
            while true {
                if matches(afterSlash, text[start...]) { return true }
                guard let nextSlash = text[start...].firstIndex(of: slash) else { return false }
                start = nextSlash + 1
            }
        }
        var start = text.startIndex
        while true {
            if matches(rest, text[start...]) { return true }
            guard start < text.endIndex else { return false }
            start += 1
        }
    }

    /// Whether `byte` is in the class starting at `start` (`[`), and where the pattern
    /// goes on after it; nil for a malformed class (refused when the pattern was added).
    private static func matchClass(_ pattern: ArraySlice<UInt8>, at start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var i = start + 1
        var negated = false
        if i < pattern.endIndex, pattern[i] == UInt8(ascii: "!") || pattern[i] == UInt8(ascii: "^") {
            negated = true
            i += 1
        }
        var matched = false
        var first = true
        while i < pattern.endIndex {
            var low = pattern[i]
            if low == UInt8(ascii: "]") && !first { return (matched != negated && byte != slash, i + 1) }
            first = false
            if low == backslash, i + 1 < pattern.endIndex {
                i += 1
                low = pattern[i]
            }
            var high = low
            if i + 2 < pattern.endIndex, pattern[i + 1] == UInt8(ascii: "-"), pattern[i + 2] != UInt8(ascii: "]") {
                high = pattern[i + 2]
                i += 2
            }
            if low <= byte && byte <= high { matched = true }
            i += 1
        }
        return nil
    }

    private static func classesAreClosed(_ pattern: [UInt8]) -> Bool {
        var i = 0
        while i < pattern.count {
            if pattern[i] == backslash {
                i += 2
                continue
            }
            if pattern[i] == bracket {
                guard let (_, next) = matchClass(pattern[...], at: i, 0) else { return false }
                i = next
                continue
            }
            i += 1
        }
        return true
    }
}
