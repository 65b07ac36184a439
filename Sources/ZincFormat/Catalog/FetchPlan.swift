/// How the missing objects of a bundle version get downloaded.
public enum FetchStrategy: String, CaseIterable, Sendable {
    /// Each object by itself: `objects/xx/yy/<sha>[.gz]`.
    case objects
    /// The version's whole archive.
    case archive
    /// One `Range: bytes=0-N` request for the front of the LMFO archive, where the
    /// objects new since any earlier version sit.
    case lmfo
}

/// The choice among the strategies for one bundle update, with the estimate of each,
/// so a report can say why. Archive strategies are planned only when the version has
/// an archive (more than one file); objects the archive bytes did not deliver are
/// fetched one by one afterwards, so a wrong guess costs requests, never correctness.
package struct FetchPlan: Equatable, Sendable {
    package let strategy: FetchStrategy
    /// Sorted by sha: the objects to fetch whole, `takenWhole` included.
    package let missing: [StoredObject]
    /// The chunked objects (given to `make` as `chunked`) that the chosen archive download
    /// carries whole anyway: taken from it (they are in `missing`), not assembled from
    /// chunks as well, which would fetch their bytes twice.
    package let takenWhole: [StoredObject]
    /// `archives/<bundle>-<v>[~flavor].tar`, when the version has one.
    package let archivePath: String?
    /// The archive's exact length, from the manifest's sizes (members and end blocks).
    package let archiveLength: Int64
    /// Σ `512 + roundup512(size)` over the missing objects: the LMFO prefix to request.
    package let prefixLength: Int64
    /// What each strategy considered would download.
    package let transfers: [FetchStrategy: Transfer]
    /// Estimated cost per strategy considered, by the plan's cost model.
    package let estimates: [FetchStrategy: Int64]
    /// What the plan knew of the archive's member order: `.unknown` when it was given a
    /// record that does not list exactly the archive's members.
    package let memberOrder: MemberOrder

    /// What a plan knows of the order of the archive's members, which decides how far
    /// into the LMFO archive the missing objects reach.
    package enum MemberOrder: Equatable, Sendable {
        /// The missing objects are taken to be the archive's front, as they are in an
        /// update from the version just before (`zinc diff`).
        case assumed
        /// Each member's `intro`, from the version's LMFO record (`lmfo/B-V.json`, read
        /// as an unsigned hint): the prefix ends exactly after the last missing member.
        case recorded([SHA1.Digest: Int])
        /// Nothing known: objects the repo has may sit among the missing ones (they
        /// left a version between and came back), so a prefix of the missing objects'
        /// length can end before the last of them, which then come one by one. It is
        /// priced as `assumed`, with a margin: an eighth more bytes and one more round.
        case unknown
    }

    /// The requests and bytes of one way to download the missing objects.
    package struct Transfer: Equatable, Sendable {
        package let requests: Int
        package let bytes: Int64

        package init(requests: Int, bytes: Int64) {
            self.requests = requests
            self.bytes = bytes
        }
    }

    /// What a plan needs of the version's archive (of the flavor), found without a list
    /// of its members: a client brings it from its packed table of the version's objects,
    /// whatever the bundle's size.
    package struct ArchiveShape: Sendable {
        /// The version's files (of the flavor); one file gets no archive.
        package let fileCount: Int
        /// Its distinct objects: the archive's members.
        package let distinctMembers: Int
        /// The archive's exact length: its members and end blocks.
        package let length: Int64
        /// Each member's stored size, nil for an object that is not a member; needed only
        /// to price a `.recorded` order.
        package let memberSize: (@Sendable (SHA1.Digest) -> Int64?)?

        /// - Parameters:
        ///   - fileCount: the version's files (of the flavor).
        ///   - distinctMembers: its distinct objects.
        ///   - length: the archive's exact length.
        ///   - memberSize: each member's stored size (nil for another object), to price a
        ///     recorded member order; without it such an order counts as `.unknown`.
        package init(fileCount: Int, distinctMembers: Int, length: Int64, memberSize: (@Sendable (SHA1.Digest) -> Int64?)? = nil) {
            self.fileCount = fileCount
            self.distinctMembers = distinctMembers
            self.length = length
            self.memberSize = memberSize
        }

        /// The shape of an archive whose members are `objects`, each once, for `fileCount`
        /// files.
        package init(objects: [StoredObject], fileCount: Int) {
            let distinct = StoredObject.distinctSorted(objects)
            let sizes = Dictionary(uniqueKeysWithValues: distinct.map { ($0.digest, $0.preferredSize) })
            self.init(
                fileCount: fileCount, distinctMembers: distinct.count,
                length: objects.reduce(Int64(2 * TarHeader.blockSize)) { $0 + TarHeader.memberLength(size: $1.preferredSize) },
                memberSize: { sizes[$0] })
        }
    }

    /// `make(missing:archive:...)` with the archive's shape found from `archiveObjects`,
    /// every object of the version's archive (of the flavor): for a caller that holds them
    /// (`zinc diff`).
    package static func make(
        missing: [StoredObject], archiveObjects: [StoredObject], fileCount: Int,
        archiveStored: Bool = true, archivePath: String, model: CostModel, forced: FetchStrategy? = nil,
        chunked: [StoredObject] = [], partial: Int64 = 0, memberOrder: MemberOrder = .assumed
    ) -> FetchPlan {
        make(
            missing: missing, archive: ArchiveShape(objects: archiveObjects, fileCount: fileCount), archiveStored: archiveStored,
            archivePath: archivePath, model: model, forced: forced, chunked: chunked, partial: partial, memberOrder: memberOrder)
    }

    /// The cheapest way, by `model`'s estimate, to fetch the `missing` objects.
    ///
    /// - Parameters:
    ///   - missing: the objects of the version not in the repo.
    ///   - archive: the version's archive (of the flavor): its files, members and length.
    ///   - archiveStored: whether the catalog holds the archive (a version no distribution
    ///     names may lack it, see `ArchivePolicy`); without it only objects are priced.
    ///   - archivePath: the catalog-relative path of that archive.
    ///   - model: how requests weigh against bytes.
    ///   - forced: a strategy to use whatever the estimates say (benchmarks, debugging).
    ///   - chunked: missing objects built from chunks instead (see `ChunkAssembly`): new
    ///     in the version like the others, they sit among them at the front of the LMFO
    ///     archive, and a prefix holding the others holds them too.
    ///   - partial: the bytes of the archive's front already on disk (a download cut
    ///     short, its complete members taken out of `missing`): both archive strategies
    ///     resume after them, so they are not priced, and the LMFO prefix reaches past
    ///     them by the members still missing (the member the cut split counted whole: a
    ///     few bytes more than needed, never fewer).
    ///   - memberOrder: what is known of the archive's member order; a record that does
    ///     not list exactly the archive's members (or an `archive` without `memberSize`)
    ///     counts as `.unknown`.
    package static func make(
        missing: [StoredObject], archive: ArchiveShape, archiveStored: Bool = true, archivePath: String, model: CostModel,
        forced: FetchStrategy? = nil, chunked: [StoredObject] = [], partial: Int64 = 0, memberOrder: MemberOrder = .assumed
    ) -> FetchPlan {
        // Digests order as their hex forms do. A client's missing objects come sorted, and
        // are then kept without a copy (4 MB for a first sync of 100,000 files).
        let sorted = StoredObject.isDistinctSorted(missing) ? missing : missing.sorted { $0.digest < $1.digest }
        let whole = archive.length
        var order = memberOrder
        let memberLengths = { (total: Int64, object: StoredObject) in total + TarHeader.memberLength(size: object.preferredSize) }
        var prefix = min(whole, chunked.reduce(sorted.reduce(partial, memberLengths), memberLengths))
        if case .recorded(let intros) = memberOrder {
            // Chunked objects are built from chunks: the prefix need not reach them.
            if let size = archive.memberSize,
                let end = recordedPrefix(
                    intros: intros, distinctMembers: archive.distinctMembers, size: size, wanted: Set(sorted.map(\.digest)))
            {
                prefix = max(end, partial)
            } else {
                order = .unknown
            }
        }
        let hasArchive = archive.fileCount > 1 && archiveStored
        var transfers: [FetchStrategy: Transfer] = [
            .objects: Transfer(requests: sorted.count, bytes: sorted.reduce(0) { $0 + $1.preferredSize })
        ]
        if hasArchive {
            transfers[.archive] = Transfer(requests: 1, bytes: max(whole - partial, 0))
            transfers[.lmfo] = Transfer(requests: 1, bytes: max(prefix - partial, 0))
        }
        var estimates = transfers.mapValues { model.cost(requests: $0.requests, bytes: $0.bytes) }
        if order == .unknown, let lmfo = transfers[.lmfo] {
            estimates[.lmfo] = model.cost(requests: 2, bytes: lmfo.bytes + lmfo.bytes / 8)
        }
        let chosen: FetchStrategy
        if let forced, estimates[forced] != nil {
            chosen = forced
        } else {
            // Ties go to the simpler request: objects, then the whole archive, then a range.
            chosen =
                [FetchStrategy.objects, .archive, .lmfo]
                .compactMap { strategy in estimates[strategy].map { (strategy, $0) } }
                .min { $0.1 < $1.1 }!.0
        }
        let taken = carried(chunked, by: chosen, prefix: prefix, order: order, archive: archive, wanted: sorted)
        return FetchPlan(
            strategy: chosen, missing: taken.isEmpty ? sorted : StoredObject.distinctSorted(sorted + taken), takenWhole: taken,
            archivePath: hasArchive ? archivePath : nil,
            archiveLength: whole, prefixLength: prefix, transfers: transfers, estimates: estimates, memberOrder: order)
    }

    /// The `assemblies` left to build from chunks: those whose object the download does
    /// not carry whole (`takenWhole`).
    package func assembling(_ assemblies: [ChunkAssembly]) -> [ChunkAssembly] {
        guard !takenWhole.isEmpty else { return assemblies }
        let taken = Set(takenWhole.map(\.digest))
        return assemblies.filter { !taken.contains($0.object.digest) }
    }

    /// The `chunked` objects that the `chosen` download holds whole: all of them in the
    /// whole archive, and in an LMFO prefix whose end counted them (the order assumed) or
    /// that reaches them by the record; none where the order is unknown, as the prefix
    /// may end before them and a large object would then be fetched whole, not in chunks.
    private static func carried(
        _ chunked: [StoredObject], by chosen: FetchStrategy, prefix: Int64, order: MemberOrder, archive: ArchiveShape,
        wanted: [StoredObject]
    ) -> [StoredObject] {
        switch (chosen, order) {
        case (.archive, _), (.lmfo, .assumed): return chunked
        case (.lmfo, .recorded(let intros)):
            guard let size = archive.memberSize,
                let end = recordedPrefix(
                    intros: intros, distinctMembers: archive.distinctMembers, size: size,
                    wanted: Set(wanted.map(\.digest)).union(chunked.map(\.digest))),
                end <= prefix
            else { return [] }
            return chunked
        default: return []
        }
    }

    /// The length of the LMFO archive's front that holds every `wanted` member, given
    /// each member's `intro` and stored `size`; nil when `intros` does not list exactly the
    /// archive's `distinctMembers` (another version's record, a damaged one: then the
    /// order is not known). The members are taken in digest order, as the archive's
    /// writer takes them (`StoredObject.distinctSorted`), so sizes are looked up, never listed.
    static func recordedPrefix(
        intros: [SHA1.Digest: Int], distinctMembers: Int, size: (SHA1.Digest) -> Int64?, wanted: Set<SHA1.Digest>
    ) -> Int64? {
        guard distinctMembers == intros.count else { return nil }
        let members = intros.sorted { $0.key < $1.key }
        var sizes = [Int64]()
        sizes.reserveCapacity(members.count)
        for member in members {
            guard let memberSize = size(member.key) else { return nil }
            sizes.append(memberSize)
        }
        var offset: Int64 = 0
        var end: Int64 = 0
        for position in LMFOOrder.positions(intros: members.map(\.value)) {
            offset += TarHeader.memberLength(size: sizes[position])
            if wanted.contains(members[position].key) { end = offset }
        }
        return end
    }
}
