/// Bytes of a file to assemble that a file of the destination holds already.
public struct CopiedRange: Equatable, Sendable {
    /// The destination's file holding them.
    public let source: String
    /// Where they start in `source`.
    public let sourceOffset: Int64
    /// Where they go in the assembled file.
    public let range: Range<Int64>

    public init(source: String, sourceOffset: Int64, range: Range<Int64>) {
        self.source = source
        self.sourceOffset = sourceOffset
        self.range = range
    }

    /// The first `count` bytes.
    func prefix(_ count: Int64) -> CopiedRange {
        CopiedRange(source: source, sourceOffset: sourceOffset, range: range.lowerBound..<(range.lowerBound + count))
    }

    /// All but the first `count` bytes.
    func dropFirst(_ count: Int64) -> CopiedRange {
        CopiedRange(source: source, sourceOffset: sourceOffset + count, range: (range.lowerBound + count)..<range.upperBound)
    }
}

/// One part of an assembled file, in order.
public enum AssemblyPart: Equatable, Sendable {
    /// Local bytes sent as they are.
    case send(Range<Int64>)
    /// Bytes the destination holds, copied there.
    case copy(CopiedRange)
    /// New bytes too few to be a part of their own (and not at the end), after the
    /// copied bytes before them: a temporary object of the two, assembled first (the
    /// copy, then the sent bytes as its last part, which may be short) and copied whole.
    case joined(CopiedRange, Range<Int64>)

    /// Where the part is in the assembled file.
    public var range: Range<Int64> {
        switch self {
        case .send(let range): return range
        case .copy(let copied): return copied.range
        case .joined(let copied, let sent): return copied.range.lowerBound..<sent.upperBound
        }
    }

    /// The bytes that cross the network for it.
    public var sentBytes: Int64 {
        switch self {
        case .send(let range), .joined(_, let range): return Int64(range.count)
        case .copy: return 0
        }
    }
}

/// How a file is assembled at a destination: parts within the store's limits, each
/// copied from files the destination holds or sent. Made from the ranges the
/// destination holds (`AssemblySources`); everything between them is sent.
///
/// Every part but the last must reach the store's minimum, which decides the shape:
/// a copied range shorter than the minimum is sent instead; new bytes after a copied
/// range join its last minimum's worth in a temporary object (`AssemblyPart.joined`),
/// so only they are sent; new bytes at the start have no copied range before them, so
/// the first part is sent whole, up to the minimum, the only place where bytes the
/// destination holds are sent again.
public struct AssemblyPlan: Equatable, Sendable {
    public let path: String
    public let size: Int64
    public let parts: [AssemblyPart]

    /// The plan for `path` (`size` bytes) given the ranges the destination holds (sorted,
    /// not overlapping), or nil when it would send nearly as much as the whole file
    /// (less than half copied) or cannot keep to `limits`.
    public init?(path: String, size: Int64, copies: [CopiedRange], limits: AssemblyLimits) {
        let minimum = limits.minimumPart
        var parts = [AssemblyPart]()
        var cursor: Int64 = 0
        func send(_ range: Range<Int64>) {
            guard !range.isEmpty else { return }
            switch parts.last {
            case .send(let previous):
                parts[parts.count - 1] = .send(previous.lowerBound..<range.upperBound)
            case .joined(let copied, let sent):
                parts[parts.count - 1] = .joined(copied, sent.lowerBound..<range.upperBound)
            case .copy(let copied) where range.count < minimum && range.upperBound < size:
                let length = Int64(copied.range.count)
                if length >= 2 * minimum {
                    parts[parts.count - 1] = .copy(copied.prefix(length - minimum))
                    parts.append(.joined(copied.dropFirst(length - minimum), range))
                } else {
                    parts[parts.count - 1] = .joined(copied, range)
                }
            default:
                parts.append(.send(range))
            }
        }
        for copy in copies where copy.range.count >= minimum {
            guard copy.range.lowerBound >= cursor, copy.range.upperBound <= size else { return nil }
            send(cursor..<copy.range.lowerBound)
            var copied = copy
            cursor = copy.range.upperBound
            if case .send(let first) = parts.last, first.count < minimum {
                // Only the first part can be short here: it takes the copy's head.
                let rest = Int64(copied.range.count) - (minimum - Int64(first.count))
                if rest < minimum && copied.range.upperBound < size {
                    parts[parts.count - 1] = .send(first.lowerBound..<copied.range.upperBound)
                    continue
                }
                parts[parts.count - 1] = .send(first.lowerBound..<(first.lowerBound + minimum))
                copied = copied.dropFirst(minimum - Int64(first.count))
                if rest <= 0 { continue }
            }
            parts.append(.copy(copied))
        }
        send(cursor..<size)
        parts = parts.flatMap { Self.split($0, maximum: limits.maximumPart) }
        let sent = parts.reduce(0) { $0 + $1.sentBytes }
        guard 2 * sent < size, parts.count <= limits.maximumParts,
            parts.allSatisfy({ $0.range.count <= limits.maximumPart }),
            parts.dropLast().allSatisfy({ $0.range.count >= minimum })
        else { return nil }
        self.path = path
        self.size = size
        self.parts = parts
    }

    /// Bytes sent: the new ones, and the head of a file that starts with new bytes.
    public var sentBytes: Int64 { parts.reduce(0) { $0 + $1.sentBytes } }
    /// Bytes copied from files the destination holds.
    public var copiedBytes: Int64 { size - sentBytes }

    /// A part larger than the store takes, as equal parts it takes (each larger than
    /// the minimum, since the maximum is many times it); a joined part is never that large.
    private static func split(_ part: AssemblyPart, maximum: Int64) -> [AssemblyPart] {
        let length = Int64(part.range.count)
        guard length > maximum else { return [part] }
        let count = (length + maximum - 1) / maximum
        let piece = (length + count - 1) / count
        var pieces = [AssemblyPart]()
        var start: Int64 = 0
        while start < length {
            let end = min(start + piece, length)
            switch part {
            case .send(let range): pieces.append(.send((range.lowerBound + start)..<(range.lowerBound + end)))
            case .copy(let copied): pieces.append(.copy(copied.dropFirst(start).prefix(end - start)))
            case .joined: return [part]
            }
            start = end
        }
        return pieces
    }
}
