import Foundation
import Testing

/// docs/ARCHITECTURE.md stays a map of the whole source: every folder of code is named
/// there by its path.
@Suite struct ArchitectureDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func everySourceFolderIsMentioned() throws {
        let doc = try String(contentsOfFile: Self.root + "/docs/ARCHITECTURE.md", encoding: .utf8)
        var missing = [String]()
        for top in ["Sources", "Fuzz"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.root + "/" + top)
            while let item = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                let path = top + "/" + item
                guard FileManager.default.fileExists(atPath: Self.root + "/" + path, isDirectory: &isFolder), isFolder.boolValue,
                    !path.hasPrefix("Fuzz/corpus/"), !path.hasSuffix("/include")
                else { continue }
                if !doc.contains(path + "/") { missing.append(path) }
            }
        }
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md does not mention \(missing.sorted())")
    }
}
