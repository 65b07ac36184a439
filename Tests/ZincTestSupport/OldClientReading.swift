import Foundation
import Zinc

/// A catalog read as JavaZinc and the original Python tool read it: the index's
/// `distributions[D]` names a version, its gzipped manifest lists the files by SHA-1,
/// and the version's archive holds their objects, unpacked by name
/// (`<sha>` or `<sha>.gz`). Parsed independently of the code under test, with
/// Foundation's JSON and `TarListing`.
public enum OldClientReading {
    /// The distributions of `bundle` in the index's JSON, by name.
    public static func distributions(index: [UInt8], bundle: String) throws -> [String: Int] {
        let document = try JSONSerialization.jsonObject(with: Data(index))
        guard let entry = ((document as? [String: Any])?["bundles"] as? [String: Any])?[bundle] as? [String: Any],
            let distributions = entry["distributions"] as? [String: Int]
        else { throw OldClientReadingError("the index has no distributions of bundle '\(bundle)'") }
        return distributions
    }

    /// Every file of a version, path to content, from its gzipped manifest and its
    /// archive; throws when the archive lacks a file's object.
    public static func files(gzippedManifest: [UInt8], archive: [UInt8]) throws -> [String: [UInt8]] {
        let manifest = try JSONSerialization.jsonObject(with: Data(GzipDecompressor.decompress(gzippedManifest)))
        guard let files = (manifest as? [String: Any])?["files"] as? [String: [String: Any]] else {
            throw OldClientReadingError("the manifest has no files")
        }
        guard let members = TarListing.members(archive) else { throw OldClientReadingError("the archive is not a tar") }
        let byName = Dictionary(members.map { ($0.name, $0.data) }) { first, _ in first }
        var contents = [String: [UInt8]]()
        for (path, file) in files {
            guard let sha = file["sha"] as? String else { throw OldClientReadingError("\(path) has no sha") }
            let gz = (file["formats"] as? [String: Any])?["gz"] != nil
            guard let stored = byName[sha + (gz ? ".gz" : "")] else {
                throw OldClientReadingError("\(path) is not in the archive")
            }
            contents[path] = gz ? try GzipDecompressor.decompress(stored) : stored
        }
        return contents
    }
}

public struct OldClientReadingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
