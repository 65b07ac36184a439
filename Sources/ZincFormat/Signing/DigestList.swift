/// `digests/B-V.txt.gz`: the SHA-256 of the content of each file of a version's manifest,
/// in a file of its own that a version signature (`VersionSignature`) covers by its
/// SHA-256.
///
/// Why a file of its own: the manifest signature holds these digests too, and a client
/// fetches it whole at every update (113 bytes per object, 11 MB at 100,000 files). This
/// list is stored chunk-deflated as manifests are (`ChunkDeflater`), with a description
/// of the same kind as theirs (`digests/B-V.chunks.json.gz`, a `ManifestChunks`), so a
/// client holding an earlier version's list fetches only the chunks that differ. Its
/// lines follow the manifest's paths, so a changed file changes one line in place (an
/// order by SHA-1 would move it: two chunks), and name no object: the signed manifest
/// pairs each line with its file's object.
///
/// ```
/// zinc-digests 1
/// SHA256              (one line per file, in ascending order of the paths' UTF-8 bytes)
/// ```
package struct DigestList: Equatable, Sendable {
    package static let folder = "digests"
    package static let header = "zinc-digests 1\n"
    /// 65 bytes per file: room for a manifest of a million files.
    package static let sizeLimit = 64 << 20
    /// 64 hex digits and a newline.
    package static let lineLength = 64 + 1
    /// The most files a list within `sizeLimit` has (1,032,443): what a version signature
    /// may declare, so that no signature is accepted whose list would be refused.
    package static let maximumFiles = (sizeLimit - header.utf8.count) / lineLength

    /// The SHA-256 of each file's content, in the order of `paths(of:)`.
    package var digests: [SHA256.Digest]

    package init(digests: [SHA256.Digest]) {
        self.digests = digests
    }

    /// The list of `manifest`'s files, from the SHA-256 of each object's content.
    package init(objects: [SHA1.Digest: SHA256.Digest], of manifest: Manifest) {
        digests = Self.paths(of: manifest).map { objects[manifest.files[$0]!.object.digest]! }
    }

    /// `digests/B-V.txt.gz`, the list chunk-deflated.
    package static func path(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).txt.gz"
    }

    /// `digests/B-V.chunks.json.gz`, where the list's chunks are in it.
    package static func chunksPath(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).chunks.json.gz"
    }

    /// The manifest's paths in the list's order: by their UTF-8 bytes, which every reader
    /// orders alike (a `String`'s `<` follows Unicode's rules instead).
    package static func paths(of manifest: Manifest) -> [String] {
        manifest.files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The plain list.
    package func encoded() -> [UInt8] {
        var out = Array(Self.header.utf8)
        out.reserveCapacity(out.count + digests.count * Self.lineLength)
        for digest in digests {
            out.append(contentsOf: digest.hex.utf8)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// The SHA-256 of each object of `manifest`, each file's line paired with its object;
    /// throws when the list has another number of lines, or gives one object two digests.
    package func objects(of manifest: Manifest, path: String) throws -> [SHA1.Digest: SHA256.Digest] {
        guard digests.count == manifest.files.count else {
            throw ZincError.signature(path: path, reason: "lists \(digests.count) files, but the manifest has \(manifest.files.count)")
        }
        var objects = [SHA1.Digest: SHA256.Digest](minimumCapacity: digests.count)
        for (file, digest) in zip(Self.paths(of: manifest), digests) {
            let object = manifest.files[file]!.object.digest
            guard objects.updateValue(digest, forKey: object).map({ $0 == digest }) ?? true else {
                throw ZincError.signature(path: path, reason: "gives object \(object) two SHA-256s (at '\(file)')")
            }
        }
        return objects
    }

    /// The SHA-256 of one line (`lineLength` bytes, its newline included); nil unless it is
    /// 64 lowercase hex digits and a newline.
    package static func digest(line: ArraySlice<UInt8>) -> SHA256.Digest? {
        guard line.count == lineLength, line.last == UInt8(ascii: "\n") else { return nil }
        return SHA256.Digest(hex: String(decoding: line.dropLast(), as: UTF8.self))
    }

    /// Parses a plain list, refusing anything but the header and whole lines of 64
    /// lowercase hex digits, within `sizeLimit`.
    package static func parse(_ bytes: [UInt8], path: String) throws -> DigestList {
        func damaged(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard bytes.count <= sizeLimit else { throw damaged("larger than the \(sizeLimit) bytes a digest list may have") }
        let header = Array(Self.header.utf8)
        guard bytes.starts(with: header) else { throw damaged("does not start with '\(Self.header.dropLast())'") }
        let body = bytes.count - header.count
        guard body % lineLength == 0 else { throw damaged("its lines are not each a SHA-256") }
        var digests = [SHA256.Digest]()
        digests.reserveCapacity(body / lineLength)
        for start in stride(from: header.count, to: bytes.count, by: lineLength) {
            guard let digest = digest(line: bytes[start..<(start + lineLength)]) else {
                throw damaged("line \(digests.count + 2) is not a SHA-256 in lowercase hex")
            }
            digests.append(digest)
        }
        return DigestList(digests: digests)
    }
}
