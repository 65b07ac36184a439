import Zinc

/// The LMFO record of the version a sync moves to (`lmfo/B-V.json`), read as an unsigned
/// hint of where the objects the repo lacks sit in the version's archive, so that the LMFO
/// prefix is priced, and requested, exactly (`FetchPlan.MemberOrder.recorded`). Without
/// it, objects the repo has that left a version between and came back sit among the
/// missing ones, and a prefix of the missing objects' length ends before the last of them.
///
/// The catalog's tool keeps the record for its own bookkeeping and signs nothing of it.
/// A record that is missing, too large, not a valid record of the version, or that does
/// not list exactly the archive's members leaves the order unknown (the prefix priced
/// with a margin); a lying one costs bytes at most, never a wrong file: every member is
/// checked, and objects a prefix misses are fetched one by one.
package enum LMFOHint {
    /// The bytes a record takes per object of each scope: a quoted sha and a comma.
    static let bytesPerObject: Int64 = 43

    /// The largest record fetched: what the link moves in one round trip (the record
    /// comes beside the manifest, so it costs its bytes alone), at least 64 KiB, at most
    /// `documentLimit`.
    static func limit(model: CostModel, documentLimit: Int64) -> Int64 {
        min(documentLimit, max(64 << 10, model.requestOverhead))
    }

    /// Whether the record is worth fetching for an update from `current`, the version the
    /// repo has (its header: no file of it is read): when a record of its size (every
    /// object once per scope, the whole version's and each flavor's) stays within `limit`.
    static func worthFetching(from current: ManifestHeader, limit: Int64) -> Bool {
        let (entries, overflow) = Int64(current.fileCount).multipliedReportingOverflow(by: Int64(1 + current.flavors.count))
        return !overflow && entries <= limit / bytesPerObject
    }

    /// The member order of the archive of `version` (of `flavor`, nil for the whole
    /// version) that a record's `bytes`, fetched from `url`, give; `.unknown` for no record
    /// or one that is not a valid record of that version.
    package static func order(_ bytes: [UInt8]?, url: String, version: Int, flavor: String?) -> FetchPlan.MemberOrder {
        guard let bytes, let record = try? LMFORecord.parse(bytes, path: url, version: version),
            let intros = record.scopes[LMFORecord.key(flavor)]
        else { return .unknown }
        return .recorded(intros)
    }
}
