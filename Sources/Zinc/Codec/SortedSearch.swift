extension RandomAccessCollection where Index == Int {
    /// In a collection sorted so that every element `isBefore` holds for comes first, the
    /// index of the first one it does not hold for (`endIndex` when it holds for all): a
    /// binary search, for sorted tables of digests, paths and offsets. Inlinable, so that
    /// each caller gets a copy specialized to its table: called through the generic one
    /// from another module, each step copied its element out (56 bytes a stamp record),
    /// which made lookups a sixth of `status` at 100,000 files.
    @inlinable
    package func partitionPoint(where isBefore: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
