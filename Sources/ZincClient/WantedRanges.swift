/// Places the bytes of a file arriving from a server when only some ranges of it are
/// wanted: whatever the server sends (the whole file, one range covering several, the
/// parts of a `multipart/byteranges` answer), the wanted bytes go to the sink back to
/// back, in the order of the ranges, and everything else is skipped. Bytes can only be
/// placed in order, so a server that jumps past a wanted byte has left a gap: the
/// transfer stops there, and the caller asks again for what is still missing.
struct WantedRanges {
    enum Progress: Equatable {
        case wantsMore
        case complete
        /// The bytes arrived past the next wanted byte, which never came.
        case gap
    }

    /// Ascending, not overlapping, none empty.
    let ranges: [Range<Int64>]
    private var index = 0
    /// The next wanted byte of the file; nil once every range has arrived.
    private(set) var next: Int64?
    /// Bytes placed so far.
    private(set) var placed: Int64 = 0

    init(_ ranges: [Range<Int64>]) {
        self.ranges = ranges
        next = ranges.first?.lowerBound
    }

    /// The bytes of all the ranges.
    var total: Int64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// Bytes a server that ignores ranges sends before the last wanted one that are not wanted.
    var unwantedBeforeEnd: Int64 { (ranges.last?.upperBound ?? 0) - total }

    /// Takes `chunk`, the file's bytes from `position` on, handing the wanted ones to `write`.
    mutating func take(
        _ chunk: UnsafeRawBufferPointer, at position: Int64, _ write: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Progress {
        var position = position
        var rest = chunk[...]
        while let wanted = next {
            if position > wanted { return .gap }
            let end = position + Int64(rest.count)
            guard end > wanted else { return .wantsMore }
            rest = rest.dropFirst(Int(wanted - position))
            position = wanted
            let n = Int(min(Int64(rest.count), ranges[index].upperBound - wanted))
            try write(UnsafeRawBufferPointer(rebasing: rest.prefix(n)))
            rest = rest.dropFirst(n)
            position += Int64(n)
            placed += Int64(n)
            if position == ranges[index].upperBound {
                index += 1
                next = index < ranges.count ? ranges[index].lowerBound : nil
            } else {
                next = position
            }
            if rest.isEmpty { break }
        }
        return next == nil ? .complete : .wantsMore
    }
}
