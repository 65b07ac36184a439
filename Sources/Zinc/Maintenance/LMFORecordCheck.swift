extension CatalogVerifier {
    /// Checks a version's LMFO record against the manifests it summarises, and returns
    /// it when it can be trusted to check the archives' order. A record must list, per
    /// scope, exactly the version's objects; an object absent from the newest earlier
    /// version it was computed over must have this version as `intro`, and one present
    /// there must have an earlier one, the very one that version's record gives when
    /// that record was computed over the same history. Each step reads one manifest and
    /// one record, so checking a version costs the same at any history length; across a
    /// whole catalog the steps chain. With no record (older catalogs), or one computed
    /// over versions since deleted, the archives are checked against the history instead.
    func checkedRecord(of manifest: Manifest, listed: [Int]) -> LMFORecord? {
        let path = LMFORecord.path(bundle: manifest.bundle, version: manifest.version)
        let record: LMFORecord
        do {
            guard let bytes = try catalog.storage.read(path) else { return nil }
            record = try LMFORecord.parse(bytes, path: path, version: manifest.version)
        } catch {
            report(path, Self.describe(error))
            return nil
        }
        let scopes = [nil] + manifest.flavors
        var problems = [String]()
        for scope in scopes {
            let objects = Set(manifest.objects(flavor: scope).values.map(\.digest))
            if Set((record.scopes[LMFORecord.key(scope)] ?? [:]).keys) != objects {
                problems.append("its objects of \(scope.map { "flavor '\($0)'" } ?? "the whole version") differ from the manifest's")
            }
        }
        if record.scopes.keys.contains(where: { key in !scopes.contains { LMFORecord.key($0) == key } }) {
            problems.append("it holds a scope the manifest does not have")
        }
        // Against the newest earlier version it was computed over, while that one is listed.
        if problems.isEmpty, let previous = record.earlierVersions.last {
            guard Set(listed).contains(previous), Array(record.earlierVersions.dropLast()) == listed.filter({ $0 < previous }).sorted() else {
                return nil  // the history changed since: the archives are checked against it
            }
            do {
                let earlier = try catalog.manifest(bundle: manifest.bundle, version: previous)
                let earlierRecord = try catalog.storage.read(LMFORecord.path(bundle: manifest.bundle, version: previous)).flatMap { bytes in
                    try? LMFORecord.parse(bytes, path: path, version: previous)
                }.flatMap { $0.earlierVersions == Array(record.earlierVersions.dropLast()) ? $0 : nil }
                for scope in scopes {
                    let held = Set(earlier.objects(flavor: scope).values.map(\.digest))
                    let earlierIntros = earlierRecord?.scopes[LMFORecord.key(scope)]
                    for (digest, intro) in record.scopes[LMFORecord.key(scope)] ?? [:] {
                        let expected: ClosedRange<Int> = !held.contains(digest) ? manifest.version...manifest.version
                            : earlierIntros?[digest].map { $0...$0 } ?? 1...previous
                        if !expected.contains(intro) {
                            problems.append("object \(digest.hex) has intro \(intro), not \(expected.lowerBound == expected.upperBound ? "\(expected.lowerBound)" : "one of \(expected)")")
                            break
                        }
                    }
                }
            } catch {
                return nil  // that version's problem is reported with it; the archives are checked against the history
            }
        } else if problems.isEmpty, record.scopes.values.contains(where: { $0.values.contains { $0 != manifest.version } }) {
            problems.append("it gives an object an intro before the first version")
        }
        for problem in problems { report(path, problem) }
        return problems.isEmpty ? record : nil
    }
}
