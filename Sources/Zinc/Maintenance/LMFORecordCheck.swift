extension CatalogVerifier {
    /// The LMFO record of each manifest's version (in the same order) when it can be
    /// trusted to check the archives' order, having checked it against the manifests it
    /// summarises; nil where there is none (older catalogs), where another tool changed
    /// the history below it, or where it is wrong (reported). Then the archives are
    /// checked against the history instead.
    ///
    /// A record must list, per scope, exactly the version's objects. Against the newest
    /// earlier version it was computed over that is still listed: an object absent there
    /// must have come in a version since (this one, when no version between was deleted),
    /// and one present there must have kept its `intro`, the very one that version's
    /// record gives when that record was computed over the same history. So checking a
    /// version reads one more manifest and record, whatever the history; over a whole
    /// catalog each record is parsed once, the earlier manifest is the one already
    /// loaded, and the checks run in parallel.
    func checkedRecords(of manifests: [Manifest], allVersions: [String: [Int]]) throws -> [LMFORecord?] {
        let parsed = try parallelMap(count: manifests.count, workers: workers) { i in
            self.loadRecord(bundle: manifests[i].bundle, version: manifests[i].version)
        }
        let records = Dictionary(
            zip(manifests, parsed).compactMap { manifest, parsed in
                parsed.0.map { (VersionKey(bundle: manifest.bundle, version: manifest.version), $0) }
            }
        ) { _, last in last }
        record(parsed.compactMap(\.1))
        let listed = allVersions.mapValues(Set.init)
        let loaded = Dictionary(manifests.map { (VersionKey(bundle: $0.bundle, version: $0.version), $0) }) { first, _ in first }
        let checked = try parallelMap(count: manifests.count, workers: workers) { i -> (LMFORecord?, [String]) in
            let manifest = manifests[i]
            guard let record = records[VersionKey(bundle: manifest.bundle, version: manifest.version)] else { return (nil, []) }
            return self.check(record, of: manifest, listed: listed[manifest.bundle] ?? [], loaded: loaded, records: records)
        }
        return zip(manifests, checked).map { manifest, result in
            let path = LMFORecord.path(bundle: manifest.bundle, version: manifest.version)
            record(result.1.map { Problem(path: path, problem: $0) })
            return result.0
        }
    }

    /// A version's stored record; neither it nor a problem when there is none.
    private func loadRecord(bundle: String, version: Int) -> (LMFORecord?, Problem?) {
        let path = LMFORecord.path(bundle: bundle, version: version)
        do {
            guard let bytes = try catalog.storage.read(path) else { return (nil, nil) }
            return (try LMFORecord.parse(bytes, path: path, version: version), nil)
        } catch {
            return (nil, Problem(path: path, problem: Self.describe(error)))
        }
    }

    /// The record when it holds, else nil and what is wrong with it (nothing, when the
    /// history changed since it was written).
    private func check(
        _ record: LMFORecord, of manifest: Manifest, listed: Set<Int>,
        loaded: [VersionKey: Manifest], records: [VersionKey: LMFORecord]
    ) -> (LMFORecord?, [String]) {
        let scopes = [nil] + manifest.flavors
        var problems = [String]()
        for scope in scopes {
            let objects = Set(manifest.objectsByDigest(flavor: scope).keys)
            if Set((record.scopes[LMFORecord.key(scope)] ?? [:]).keys) != objects {
                problems.append("its objects of \(scope.map { "flavor '\($0)'" } ?? "the whole version") differ from the manifest's")
            }
        }
        if record.scopes.keys.contains(where: { key in !scopes.contains { LMFORecord.key($0) == key } }) {
            problems.append("it holds a scope the manifest does not have")
        }
        guard problems.isEmpty else { return (nil, problems) }
        if record.earlierVersions.isEmpty {
            if record.scopes.values.contains(where: { $0.values.contains { $0 != manifest.version } }) {
                return (nil, ["it gives an object an intro before the first version"])
            }
            return (record, [])
        }
        // Versions are numbered upwards, so each version listed below this one existed
        // when it was written; one the record does not know means another tool wrote this
        // history, and the archives are checked against it instead.
        guard listed.filter({ $0 < manifest.version }).isSubset(of: record.earlierVersions) else { return (nil, []) }
        // Against the newest earlier version it was computed over that is still listed.
        // When versions above that one were deleted, an object may have come or gone in
        // them, so its intro may also be any of theirs: only the bounds can be checked.
        guard let previous = record.earlierVersions.last(where: listed.contains) else { return (record, []) }
        let skipsDeleted = previous != record.earlierVersions.last
        let previousKey = VersionKey(bundle: manifest.bundle, version: previous)
        let earlier: Manifest
        let earlierRecord: LMFORecord?
        if let manifest = loaded[previousKey] {
            earlier = manifest
            earlierRecord = records[previousKey]
        } else {
            // Only this version is verified: the earlier one is read here.
            guard let manifest = try? catalog.manifest(bundle: manifest.bundle, version: previous) else {
                return (nil, [])  // that version's problem is its own; the archives are checked against the history
            }
            earlier = manifest
            earlierRecord = loadRecord(bundle: manifest.bundle, version: previous).0
        }
        // That version's record counts when it was computed over the same versions this one was.
        let earlierVersions = record.earlierVersions.filter { $0 < previous }
        let usableEarlierRecord = earlierRecord.flatMap { $0.earlierVersions == earlierVersions ? $0 : nil }
        let newSince = skipsDeleted ? (previous + 1)...manifest.version : manifest.version...manifest.version
        for scope in scopes {
            let held = earlier.objectsByDigest(flavor: scope)
            let earlierIntros = usableEarlierRecord?.scopes[LMFORecord.key(scope)]
            for (digest, intro) in record.scopes[LMFORecord.key(scope)] ?? [:] {
                // Held by that version: its intro carries on (or, past deleted versions, it
                // may have left and come back). Not held: it came in a version since.
                let carried: ClosedRange<Int>? = held[digest] == nil ? nil : earlierIntros?[digest].map { $0...$0 } ?? 1...previous
                let new: ClosedRange<Int>? = carried == nil || skipsDeleted ? newSince : nil
                if carried?.contains(intro) != true && new?.contains(intro) != true {
                    let expected = [carried, new].compactMap { $0 }
                        .map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: " or ")
                    problems.append("object \(digest.hex) has intro \(intro), not \(expected)")
                    break
                }
            }
        }
        return problems.isEmpty ? (record, []) : (nil, problems)
    }
}
