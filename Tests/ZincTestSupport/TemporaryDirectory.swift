import Foundation
import Zinc

/// A fresh folder for one test, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let template = base + "/zinc-test-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func url(_ relative: String) -> URL { URL(fileURLWithPath: self.path + "/" + relative) }

    public func at(_ relative: String) -> String { path + "/" + relative }

    /// Writes a file, creating its folders.
    @discardableResult
    public func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
        let full = at(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, Array(text.utf8))
    }

    public func read(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }

    public func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: at(relative))
    }

    /// Every file below `relative`, as sorted relative paths (hidden files included).
    public func files(under relative: String = "") -> [String] {
        let root = relative.isEmpty ? path : at(relative)
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var result = [String]()
        while let item = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + item, isDirectory: &isDirectory), !isDirectory.boolValue {
                result.append(item)
            }
        }
        return result.sorted()
    }

    /// Every file of the catalog at `relative` with its bytes, except its lock files
    /// (created on first use, they are not catalog content).
    public func catalogContent(_ relative: String) throws -> [String: [UInt8]] {
        let files = self.files(under: relative).filter { !$0.hasSuffix(".lock") }
        return Dictionary(uniqueKeysWithValues: try files.map { ($0, try read(relative + "/" + $0)) })
    }
}
