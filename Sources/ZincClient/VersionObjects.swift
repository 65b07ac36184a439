import Zinc

/// The distinct objects of a version (of a flavor), sorted by digest and packed: 20 bytes
/// an object in one buffer, and 16 more when its sizes are kept. What the collection
/// keeps of a version in use, what the archive reader checks a member against, and what
/// prices the version's archive, with no table keyed by object.
struct VersionObjects: Sendable {
    private let packed: [UInt8]
    /// Each object's stored sizes, in digest order, when kept.
    private let sizes: [StoredObject.Sizes]?
    /// The version's archive length: every object once as a member, and the end blocks.
    let archiveLength: Int64

    /// `objects` sorted by digest, where an object may repeat (one per file): each is
    /// kept once, the first time it comes.
    init(sorted objects: some Sequence<StoredObject>, withSizes: Bool) {
        // Room for every object given (an object per file, most of them distinct), so
        // that neither buffer is copied as it grows nor left with doubled capacity.
        var digests = [UInt8]()
        digests.reserveCapacity(objects.underestimatedCount * 20)
        var sizes = [StoredObject.Sizes]()
        if withSizes { sizes.reserveCapacity(objects.underestimatedCount) }
        var length = Int64(2 * TarHeader.blockSize)
        var last: SHA1.Digest?
        for object in objects where object.digest != last {
            last = object.digest
            object.digest.appendBytes(to: &digests)
            if withSizes { sizes.append(object.sizes) }
            length += TarHeader.memberLength(size: object.preferredSize)
        }
        packed = digests
        self.sizes = withSizes ? sizes : nil
        archiveLength = length
    }

    /// The objects packed as given: `packed`, 20 bytes each, sorted and distinct, and
    /// their sizes in that order when kept.
    init(packed: [UInt8], sizes: [StoredObject.Sizes]?, archiveLength: Int64) {
        self.packed = packed
        self.sizes = sizes
        self.archiveLength = archiveLength
    }

    var count: Int { packed.count / 20 }

    /// The digest of the `index`th object in digest order.
    func digest(_ index: Int) -> SHA1.Digest { SHA1.Digest(bytes: packed[index * 20..<index * 20 + 20]) }

    /// Every digest, in order.
    var digests: LazyMapSequence<Range<Int>, SHA1.Digest> { (0..<count).lazy.map(digest) }

    /// The objects, each with its sizes, made one at a time (a first sync checks 100,000
    /// of them): none when the sizes were not kept.
    var objects: LazyMapSequence<Range<Int>, StoredObject> {
        let sizes = sizes ?? []
        return sizes.indices.lazy.map { StoredObject(digest: digest($0), sizes: sizes[$0]) }
    }

    /// The index of `digest`, nil when the version has no such object.
    private func index(of digest: SHA1.Digest) -> Int? {
        let i = (0..<count).partitionPoint { self.digest($0) < digest }
        return i < count && self.digest(i) == digest ? i : nil
    }

    func contains(_ digest: SHA1.Digest) -> Bool { index(of: digest) != nil }

    /// The object's stored size in its preferred format (an archive member's), when the
    /// sizes were kept and the version has it.
    func size(of digest: SHA1.Digest) -> Int64? {
        guard let sizes, let i = index(of: digest) else { return nil }
        return StoredObject(digest: digest, sizes: sizes[i]).preferredSize
    }
}
