/// The parameters of a content-defined chunking (`ContentChunker`), named as catalog
/// files name them. Every scheme shares the gear table and the cut rule; they differ in
/// the sizes, and a scheme's masks follow from its average the same way (normalized
/// chunking: two bits stricter before the average, two looser after). Part of the
/// catalog format (docs/FORMAT.md): a writer and a client must cut the same bytes the
/// same way, or nothing held could be matched.
package struct ChunkingScheme: Equatable, Sendable {
    /// What catalog files call it (`chunking`).
    package let name: String
    /// The shortest chunk, but for the last of a stream.
    package let minimumSize: Int
    /// Where the cut condition loosens: chunk sizes gather around it.
    package let averageSize: Int
    /// The longest chunk.
    package let maximumSize: Int
    /// Before `averageSize`: the hash's top bits that must all be zero.
    let strictMask: UInt64
    /// From `averageSize` on.
    let looseMask: UInt64

    /// `averageSize` must be a power of two.
    private init(name: String, minimumSize: Int, averageSize: Int, maximumSize: Int) {
        let bits = averageSize.trailingZeroBitCount
        self.name = name
        self.minimumSize = minimumSize
        self.averageSize = averageSize
        self.maximumSize = maximumSize
        strictMask = ~0 << (64 - (bits + 2))
        looseMask = ~0 << (64 - (bits - 2))
    }

    /// Large objects' chunks (chunk lists): 16 KiB to 256 KiB, gathering at 64 KiB
    /// (top 18 bits, then 14).
    package static let objects = ChunkingScheme(
        name: "fastcdc-gear64-16k-64k-256k", minimumSize: 16 << 10, averageSize: 64 << 10, maximumSize: 256 << 10)

    /// Catalog documents' chunks (manifests, see `ManifestChunks`): 4 KiB to 64 KiB,
    /// gathering at 16 KiB (top 16 bits, then 12). A manifest entry is about 110 bytes,
    /// so a one-file change costs a client one such chunk, a few KiB deflated.
    package static let catalogDocuments = ChunkingScheme(
        name: "fastcdc-gear64-4k-16k-64k", minimumSize: 4 << 10, averageSize: 16 << 10, maximumSize: 64 << 10)
}
