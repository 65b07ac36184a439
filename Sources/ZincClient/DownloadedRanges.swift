import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ranges of chunked objects another downloader brought for a `DownloadPlan`: a file
/// of the repo's tmp/ per request, holding the range asked for (or the front of it, from
/// a cut download, or the whole object, from a host that ignored `Range`). The apply's
/// `ChunkedObjectFetcher` asks the sources only for the bytes its ranges need that no
/// file holds, then puts the ranges together from both; the chunks' hashes and the
/// object's digest judge what the files held, as they judge any fetched bytes.
struct DownloadedRanges: Sendable {
    /// Stored bytes of an object in a file: `held`, at offset `held.lowerBound - start`.
    struct Piece: Sendable {
        let held: Range<Int64>
        let path: String
        /// The stored offset of the file's first byte, or where it would be.
        let start: Int64
    }

    /// The range each request asked for, by object.
    private let requested: [SHA1.Digest: [Piece]]

    /// The plan's requests for ranges of objects. The plan is a file the app kept: a
    /// request whose destination is not a file of tmp/ or whose range makes no sense is
    /// passed over.
    init(_ plan: DownloadPlan, in repo: Repo) {
        var requested = [SHA1.Digest: [Piece]]()
        for request in plan.requests where request.destination.hasSuffix(DownloadPlan.Request.pieceSuffix) {
            guard let sha = request.sha1, let digest = SHA1.Digest(hex: sha), let range = request.range,
                range.lowerBound >= 0, range.upperBound < Int64.max, request.offset == 0,
                let path = DownloadPlan.localFile(request.destination, in: repo)
            else { continue }
            let piece = Piece(held: range.lowerBound..<(range.upperBound + 1), path: path, start: range.lowerBound)
            requested[digest, default: []].append(piece)
        }
        self.requested = requested
    }

    /// What the files brought for `object`, whose stored file is `storedSize` bytes.
    func pieces(of object: SHA1.Digest, storedSize: Int64) -> [Piece] {
        (requested[object] ?? []).compactMap { piece in
            var status = stat()
            guard lstat(piece.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            let size = Int64(status.st_size)
            let length = piece.held.upperBound - piece.held.lowerBound
            if size == storedSize, length < storedSize { return Piece(held: 0..<storedSize, path: piece.path, start: 0) }
            guard size > 0, size <= length else { return nil }
            return Piece(held: piece.start..<(piece.start + size), path: piece.path, start: piece.start)
        }
    }

    /// The parts of `ranges` (ascending, apart) no piece holds.
    static func gaps(in ranges: [Range<Int64>], leftBy pieces: [Piece]) -> [Range<Int64>] {
        let held = pieces.map(\.held).sorted { $0.lowerBound < $1.lowerBound }
        var gaps = [Range<Int64>]()
        for range in ranges {
            var at = range.lowerBound
            for piece in held where piece.upperBound > at && piece.lowerBound < range.upperBound {
                if piece.lowerBound > at { gaps.append(at..<piece.lowerBound) }
                at = max(at, piece.upperBound)
            }
            if at < range.upperBound { gaps.append(at..<range.upperBound) }
        }
        return gaps
    }

    /// The pieces of a file that holds `ranges` back to back (a download of them).
    static func pieces(ofDownload path: String, ranges: [Range<Int64>]) -> [Piece] {
        var offset: Int64 = 0
        return ranges.map { range in
            defer { offset += range.upperBound - range.lowerBound }
            return Piece(held: range, path: path, start: range.lowerBound - offset)
        }
    }

    /// Writes `part` afresh: the bytes of `ranges` back to back, from `pieces`, up to the
    /// first byte none of them holds.
    static func compose(_ part: String, ranges: [Range<Int64>], from pieces: [Piece]) throws {
        let file = try PosixFile.open(part, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var open = [String: PosixFile]()
        for range in ranges {
            var at = range.lowerBound
            while at < range.upperBound {
                guard let piece = pieces.first(where: { $0.held.contains(at) }) else { return }
                let source = try open[piece.path] ?? PosixFile.openForReading(piece.path)
                open[piece.path] = source
                let end = min(range.upperBound, piece.held.upperBound, at + Int64(buffer.count))
                let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[..<Int(end - at)])
                guard try source.readFully(into: bytes, at: at - piece.start) == bytes.count else { return }
                try file.write(UnsafeRawBufferPointer(bytes))
                at = end
            }
        }
    }
}
