import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One bundle's update as the engine found it before downloading anything: the
/// version's manifest (its compact table), the objects the repo lacks and how they will
/// come. A plan describes it; a sync carries it out.
struct PreparedUpdate: Sendable {
    /// `catalog.bundle-version[~flavor]`, for the partial archive and progress.
    let name: String
    let header: ManifestHeader
    /// The version's files: read a row at a time from its table file as a folder built
    /// whole places them (held only by a seed run, or when not in path order); an update
    /// from a spare folder keeps only the files it places (`spare`).
    let files: VersionTable
    /// The version's files of the flavor.
    let fileCount: Int
    let signedContent: [SHA1.Digest: SHA256.Digest]?
    /// Every object of the version (of the flavor): the archive's members.
    let objects: VersionObjects
    /// How the objects to fetch whole come.
    let plan: FetchPlan
    let chunked: ChunkedFetches?
    /// The bytes of each hint fetched beside the manifest: the version's chunk list, when
    /// the repo holds chunks, and its LMFO record (`LMFOHint`). No run keeps them, so each
    /// one (a plan, the sync after it) fetches them.
    let hintSizes: [Int64]
    /// The version is the one checked out, whose damaged files are fetched again.
    let isRepair: Bool
    /// No check found the folder in use damaged: switched away from, it can be the spare.
    let leavesSoundFolder: Bool
    /// The spare folder the checkout brings to the version, and what that takes.
    let spare: BundleCheckout.Spare?

    var version: Int { header.version }

    /// The bytes the sync moves for it: its objects' (`fetchBytes`) and the hints it
    /// fetches again.
    var bytes: Int64 { fetchBytes + hintSizes.reduce(0, +) }

    /// The bytes of its objects: the plan's transfer and the chunk ranges.
    var fetchBytes: Int64 { Self.fetchBytes(plan, chunked: chunked) }

    static func fetchBytes(_ plan: FetchPlan, chunked: ChunkedFetches?) -> Int64 {
        (plan.missing.isEmpty ? 0 : plan.transfers[plan.strategy]?.bytes ?? 0)
            + (chunked?.assemblies.reduce(0) { $0 + $1.fetchedBytes } ?? 0)
    }

    /// Its requests: the plan's, the chunk ranges' (several ranges to a request, from a
    /// server that answers several at once), and the hints'.
    var requests: Int {
        let whole = plan.missing.isEmpty ? 0 : plan.transfers[plan.strategy]?.requests ?? 0
        let ranges =
            chunked?.assemblies.reduce(0) { $0 + ($1.ranges.count + SourceChain.rangesPerRequest - 1) / SourceChain.rangesPerRequest } ?? 0
        return whole + ranges + hintSizes.count
    }

    func describe(_ planned: inout BundlePlan) {
        planned.action = isRepair ? .repair : .update
        planned.strategy = plan.missing.isEmpty ? nil : plan.strategy
        planned.missingObjects = plan.missing.count + (chunked?.assemblies.count ?? 0)
        planned.chunkedObjects = chunked?.assemblies.count ?? 0
        planned.bytes = bytes
        planned.requests = requests
    }
}

extension PreparedUpdate {
    /// Whether an object it plans to fetch is in `repo`'s store now: an earlier bundle's
    /// download brought it, and the update is to be planned again.
    func fetchesStored(in repo: Repo) -> Bool {
        let stored = { (object: StoredObject) in access(repo.objectFile(object.sha), F_OK) == 0 }
        return plan.missing.contains(where: stored) || chunked?.assemblies.contains { stored($0.object) } == true
    }
}
