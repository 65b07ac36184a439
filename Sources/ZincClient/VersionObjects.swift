import Zinc

/// The distinct objects of a version (of a flavor), sorted by digest: 20 bytes an object
/// packed in one buffer, or, when their sizes are kept, the objects themselves (32 bytes
/// each), an array that a first sync's list of objects to fetch (every one of them) then
/// shares rather than copies. What the collection keeps of a version in use, what the
/// archive reader checks a member against, and what prices the version's archive, with
/// no table keyed by object.
struct VersionObjects: Sendable {
    /// The digests, when the sizes are not kept.
    private let packed: [UInt8]
    /// The objects with their sizes, in digest order, when kept.
    private let sized: [StoredObject]?
    /// The version's archive length: every object once as a member, and the end blocks.
    let archiveLength: Int64

    /// The digests packed as given: `packed`, 20 bytes each, sorted and distinct.
    init(packed: [UInt8], archiveLength: Int64) {
        self.packed = packed
        sized = nil
        self.archiveLength = archiveLength
    }

    /// The objects with their sizes as given: `objects`, sorted by digest and distinct.
    init(sized objects: [StoredObject], archiveLength: Int64) {
        packed = []
        sized = objects
        self.archiveLength = archiveLength
    }

    var count: Int { sized?.count ?? packed.count / 20 }

    /// The digest of the `index`th object in digest order.
    func digest(_ index: Int) -> SHA1.Digest {
        sized.map { $0[index].digest } ?? SHA1.Digest(bytes: packed[index * 20..<index * 20 + 20])
    }

    /// Every digest, in order.
    var digests: LazyMapSequence<Range<Int>, SHA1.Digest> { (0..<count).lazy.map(digest) }

    /// The objects, each with its sizes, in digest order: none when the sizes were not kept.
    var objects: [StoredObject] { sized ?? [] }

    /// The index of `digest`, nil when the version has no such object.
    func index(of digest: SHA1.Digest) -> Int? {
        let i = (0..<count).partitionPoint { self.digest($0) < digest }
        return i < count && self.digest(i) == digest ? i : nil
    }

    func contains(_ digest: SHA1.Digest) -> Bool { index(of: digest) != nil }

    /// The object's stored size in its preferred format (an archive member's), when the
    /// sizes were kept and the version has it.
    func size(of digest: SHA1.Digest) -> Int64? {
        guard let sized, let i = index(of: digest) else { return nil }
        return sized[i].preferredSize
    }
}
