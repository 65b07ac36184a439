/// A missing object to build from chunks: the ones already held, and the stored ranges
/// of the others, adjacent ones merged into one range. What a client's sync does, and
/// what `zinc diff` prices, for the same update.
package struct ChunkAssembly: Equatable, Sendable {
    package let object: StoredObject
    package let layout: ObjectChunks
    /// The stored bytes to fetch, ascending, on chunk boundaries.
    package let ranges: [Range<Int64>]
    /// Content bytes taken from chunks already held.
    package let reusedBytes: Int64

    /// Bytes the ranges hold.
    package var fetchedBytes: Int64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// Splits `missing` into the objects to build from chunks (those `list` gives chunks
    /// of that fit them, with at least one chunk `held`) and those to fetch whole.
    package static func plan(
        _ missing: [StoredObject], list: ChunkList?, held: (ContentChunk) -> Bool
    ) -> (assemblies: [ChunkAssembly], whole: [StoredObject]) {
        guard let list else { return ([], missing) }
        var assemblies = [ChunkAssembly]()
        var whole = [StoredObject]()
        for object in missing {
            guard let layout = list.objects[object.digest], layout.fits(object) else {
                whole.append(object)
                continue
            }
            let (ranges, reused) = layout.missingRanges(held: held)
            if reused > 0 {
                assemblies.append(ChunkAssembly(object: object, layout: layout, ranges: ranges, reusedBytes: reused))
            } else {
                // Nothing to reuse: the object whole costs the same bytes, and may come in an archive.
                whole.append(object)
            }
        }
        return (assemblies, whole)
    }
}
