/// Where each of a row of `WritePiece`s falls in a file, and the bytes of any stretch of
/// them. Every offset follows from the declared sizes, so a file (an archive: headers,
/// members, padding) can be cut into blocks that threads fill and write independently,
/// with cuts anywhere, even inside a member.
struct PieceLayout {
    let pieces: [WritePiece]
    /// The file offset of each piece's first byte, then the offset after the last piece.
    private let offsets: [Int64]

    init(_ pieces: [WritePiece], at start: Int64) {
        self.pieces = pieces
        var offsets = [Int64]()
        offsets.reserveCapacity(pieces.count + 1)
        var offset = start
        offsets.append(offset)
        for piece in pieces {
            offset += piece.size
            offsets.append(offset)
        }
        self.offsets = offsets
    }

    var start: Int64 { offsets[0] }
    var end: Int64 { offsets[offsets.count - 1] }

    /// Fills `buffer` with the bytes at the file offsets `range` (within `start...end`),
    /// opening stored files with `open`. A stored file that does not have the size its
    /// piece declared is refused, whichever of its bytes `range` covers; an empty piece
    /// belongs to the range holding its offset, or to the last one when it is at `end`.
    func fill(_ buffer: UnsafeMutableRawBufferPointer, with range: Range<Int64>, open: (String) throws -> PosixFile) throws {
        precondition(buffer.count >= range.count && range.lowerBound >= start && range.upperBound <= end)
        var index = firstPiece(endingAtOrAfter: range.lowerBound)
        while index < pieces.count && (offsets[index] < range.upperBound || (offsets[index] == end && range.upperBound == end)) {
            if offsets[index + 1] == range.lowerBound && offsets[index] < range.lowerBound {
                // Ends where the range starts: the range before holds all of it.
                index += 1
                continue
            }
            let overlap = max(range.lowerBound, offsets[index])..<min(range.upperBound, offsets[index + 1])
            let inPiece = Int(overlap.lowerBound - offsets[index])
            let target = UnsafeMutableRawBufferPointer(
                rebasing: buffer[Int(overlap.lowerBound - range.lowerBound)..<Int(overlap.upperBound - range.lowerBound)])
            switch pieces[index] {
            case .bytes(let bytes):
                bytes.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[inPiece..<inPiece + target.count])) }
            case .storedFile(let path, let size):
                let file = try open(path)
                let actual = Int64(try file.status().st_size)
                guard actual == size else { throw WritePieceMismatch(path: path, expected: size, actual: actual) }
                let read = try file.readFully(into: target, at: Int64(inPiece))
                guard read == target.count else { throw WritePieceMismatch(path: path, expected: size, actual: Int64(inPiece + read)) }
            }
            index += 1
        }
    }

    /// The first piece that ends at `offset` or later.
    private func firstPiece(endingAtOrAfter offset: Int64) -> Int {
        pieces.indices.partitionPoint { offsets[$0 + 1] < offset }
    }
}
