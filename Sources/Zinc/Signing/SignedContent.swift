#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SHA-256 a version's objects' content must have, as a checked signature gives it,
/// answered for the files a client places rather than for the whole version.
///
/// Through a version signature (`VersionSignature`), it is the version's digest list
/// (`DigestList`) as a file, accepted only once its size is the header and one 65-byte
/// line per file the signature counts and its SHA-256 the one the signature covers. A
/// file's line is then read where it lies, at its row's ordinal: the file's index in the
/// manifest's paths ordered by their UTF-8 bytes, which is the list's order. Nothing is
/// held per file: a client placing one changed file reads one line.
///
/// Through the manifest signature of a catalog signed before version signatures
/// (`ManifestSignature`), it is that signature's table of every object, 113 bytes an
/// object in the file and a dictionary in memory: O(objects), outside the client's memory
/// target, as that older catalog allows no less.
package struct SignedContent: Sendable {
    private enum Source: Sendable {
        case list(PosixFile, path: String, files: Int)
        case objects([SHA1.Digest: SHA256.Digest], path: String)
    }

    private let source: Source

    /// The digest list in `file` (plain, opened for reading and not read yet), once
    /// checked to be the one `signature` covers; errors name `path`.
    package init(list file: PosixFile, path: String, signature: VersionSignature) throws {
        let header = Array(DigestList.header.utf8)
        let expected = Int64(header.count) + Int64(signature.files) * Int64(DigestList.lineLength)
        let size = Int64(try file.status().st_size)
        guard size == expected else {
            throw ZincError.signature(
                path: path,
                reason: "it has \(size) bytes, but the \(signature.files) files the version signature counts make \(expected)")
        }
        guard try file.readAll(upTo: header.count, at: 0) == header else {
            throw ZincError.corruptFile(path: path, reason: "does not start with '\(DigestList.header.dropLast())'")
        }
        let digest = try SHA256.digest(reading: file)
        guard digest == signature.digestsSHA256 else {
            throw ZincError.signature(
                path: path, reason: "its SHA-256 is \(digest), but the version signature covers \(signature.digestsSHA256) (tampered)")
        }
        source = .list(file, path: path, files: signature.files)
    }

    /// The objects a manifest signature signs, already checked to be exactly the
    /// manifest's.
    package init(objects: [SHA1.Digest: SHA256.Digest], path: String) {
        source = .objects(objects, path: path)
    }

    /// The SHA-256 of each object of `rows`, each a file's ordinal in the manifest's path
    /// order and its object. Throws when an ordinal is past the list, a line is not a
    /// SHA-256, or two rows of one object are given different SHA-256s.
    package func contentDigests(for rows: some Sequence<(ordinal: Int, digest: SHA1.Digest)>) throws -> [SHA1.Digest: SHA256.Digest] {
        var digests = [SHA1.Digest: SHA256.Digest]()
        switch source {
        case .objects(let objects, let path):
            for row in rows where digests[row.digest] == nil {
                guard let digest = objects[row.digest] else {
                    throw ZincError.signature(path: path, reason: "the signature gives no SHA-256 for object \(row.digest)")
                }
                digests[row.digest] = digest
            }
        case .list(let file, let path, let files):
            var lines = LineWindow(file: file, path: path, files: files)
            for row in rows {
                let digest = try lines.digest(at: row.ordinal)
                guard digests.updateValue(digest, forKey: row.digest).map({ $0 == digest }) ?? true else {
                    throw ZincError.signature(
                        path: path,
                        reason: "gives object \(row.digest) two SHA-256s (at line \(row.ordinal + 2), the file at \(row.ordinal))")
                }
            }
        }
        return digests
    }

    /// The list's lines read a window at a time: rows asked for in order (a first sync
    /// asks for every one) cost one `pread` per 1,008 lines, and a lone changed row one.
    private struct LineWindow {
        let file: PosixFile
        let path: String
        let files: Int
        static let lines = 1008
        var first = 0
        var bytes = [UInt8]()

        mutating func digest(at ordinal: Int) throws -> SHA256.Digest {
            guard ordinal >= 0, ordinal < files else {
                throw ZincError.signature(path: path, reason: "has \(files) lines, none for the file at \(ordinal)")
            }
            let length = DigestList.lineLength
            if ordinal < first || (ordinal - first + 1) * length > bytes.count {
                first = ordinal
                let count = min(Self.lines, files - ordinal) * length
                bytes = try file.readAll(upTo: count, at: Int64(DigestList.header.utf8.count + ordinal * length))
                guard bytes.count == count else {
                    throw ZincError.corruptFile(path: path, reason: "ends before its line \(ordinal + 2) (changed since it was checked)")
                }
            }
            let start = (ordinal - first) * length
            guard let digest = DigestList.digest(line: bytes[start..<(start + length)]) else {
                throw ZincError.corruptFile(path: path, reason: "line \(ordinal + 2) is not a SHA-256 in lowercase hex")
            }
            return digest
        }
    }
}
