/// `digests/B-V.txt.gz`: the SHA-256 of the content of every object a version's manifest
/// names, beside its SHA-1, as the manifest signature lists them, in a file of its own
/// that a version signature (`VersionSignature`) covers by its SHA-256.
///
/// Why a file of its own: the manifest signature holds these lines too, and a client
/// fetches it whole at every update (113 bytes per object, 11 MB at 100,000 files). This
/// list is stored chunk-deflated as manifests are (`ChunkDeflater`), with a description
/// of the same kind as theirs (`digests/B-V.chunks.json.gz`, a `ManifestChunks`), so a
/// client holding an earlier version's list fetches only the chunks that differ. Two
/// versions one file apart share every line but one, in the same order.
///
/// ```
/// zinc-digests 1
/// SHA1 SHA256         (one line per object, ascending SHA-1, each object once)
/// ```
public struct DigestList: Equatable, Sendable {
    public static let folder = "digests"
    static let header = "zinc-digests 1\n"
    /// 106 bytes per object, as much room as a manifest signature has.
    public static let sizeLimit = 64 << 20
    /// `SHA1 SHA256\n`.
    static let lineLength = 40 + 1 + 64 + 1

    /// The SHA-256 of each object's content, by the object's SHA-1.
    public var objects: [SHA1.Digest: SHA256.Digest]

    public init(objects: [SHA1.Digest: SHA256.Digest]) {
        self.objects = objects
    }

    /// `digests/B-V.txt.gz`, the list chunk-deflated.
    public static func path(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).txt.gz"
    }

    /// `digests/B-V.chunks.json.gz`, where the list's chunks are in it.
    public static func chunksPath(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).chunks.json.gz"
    }

    /// The plain list.
    public func encoded() -> [UInt8] {
        var out = Array(Self.header.utf8)
        out.reserveCapacity(out.count + objects.count * Self.lineLength)
        for (sha1, sha256) in objects.sorted(by: { $0.key < $1.key }) {
            sha1.appendHex(to: &out)
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: sha256.hex.utf8)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// Parses a plain list, refusing anything but the header and whole lines of two
    /// lowercase hex digests in ascending order of SHA-1, within `sizeLimit`.
    public static func parse(_ bytes: [UInt8], path: String) throws -> DigestList {
        func damaged(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard bytes.count <= sizeLimit else { throw damaged("larger than the \(sizeLimit) bytes a digest list may have") }
        let header = Array(Self.header.utf8)
        guard bytes.starts(with: header) else { throw damaged("does not start with '\(Self.header.dropLast())'") }
        let body = bytes.count - header.count
        guard body % lineLength == 0 else { throw damaged("its lines are not each a SHA-1, a space and a SHA-256") }
        var objects = [SHA1.Digest: SHA256.Digest](minimumCapacity: body / lineLength)
        var last: SHA1.Digest?
        for start in stride(from: header.count, to: bytes.count, by: lineLength) {
            let line = bytes[start..<(start + lineLength)]
            guard let sha1 = SHA1.Digest(hexUTF8: line.prefix(40)), line[start + 40] == UInt8(ascii: " "),
                line.last == UInt8(ascii: "\n"),
                let sha256 = SHA256.Digest(hex: String(decoding: line.dropFirst(41).dropLast(), as: UTF8.self))
            else {
                throw damaged("line \(objects.count + 2) is not a SHA-1 and a SHA-256 in lowercase hex")
            }
            guard last.map({ $0 < sha1 }) ?? true else { throw damaged("its objects are not in ascending order of SHA-1 (at \(sha1))") }
            last = sha1
            objects[sha1] = sha256
        }
        return DigestList(objects: objects)
    }
}
