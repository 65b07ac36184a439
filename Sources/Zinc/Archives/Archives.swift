/// A version's archives: which a version gets, their names, their members in LMFO
/// order, and writing them.
extension Catalog {
    /// The catalog-relative path of the archive of one version: `archives/<bundle>-<version>.tar`,
    /// or `…~<flavor>.tar` for one flavor's. Clients build the same names (FORMAT.md).
    public static func archivePath(bundle: String, version: Int, flavor: String? = nil) -> String {
        "archives/\(bundle)-\(version)\(flavor.map { "~" + $0 } ?? "").tar"
    }

    /// The archives a version should have: the all-files archive when it has more than
    /// one file (skipped with flavors unless asked for), and one per flavor with more
    /// than one file. nil stands for the all-files archive.
    package static func archiveScopes(of manifest: Manifest, includeMasterArchive: Bool) -> [String?] {
        archiveScopes(flavors: manifest.flavors, includeMasterArchive: includeMasterArchive) { flavor in
            manifest.files.values.count { $0.isIn(flavor: flavor) }
        }
    }

    /// `archiveScopes(of:)` for a version given by its flavors and how many files the
    /// whole version (nil) and each flavor hold.
    static func archiveScopes(flavors: [String], includeMasterArchive: Bool, fileCount: (String?) -> Int) -> [String?] {
        var scopes = [String?]()
        if (flavors.isEmpty || includeMasterArchive) && fileCount(nil) > 1 { scopes.append(nil) }
        for flavor in flavors where fileCount(flavor) > 1 { scopes.append(flavor) }
        return scopes
    }

    /// The members of an archive in LMFO order, given its objects (repeats allowed) and
    /// the version's record. Kept as arrays sorted by sha rather than tables keyed by
    /// it: a version of 100,000 files is at its largest in memory while its archives are
    /// planned.
    static func archiveMembers(of objects: [StoredObject], flavor: String?, record: LMFORecord) -> [StoredObject] {
        archiveMembers(ofDistinct: StoredObject.distinctSorted(objects), flavor: flavor, record: record)
    }

    /// `archiveMembers(of:)` for objects already distinct and sorted by digest.
    static func archiveMembers(ofDistinct distinct: [StoredObject], flavor: String?, record: LMFORecord) -> [StoredObject] {
        let intros = record.scopes[LMFORecord.key(flavor)] ?? [:]
        return LMFOOrder.positions(intros: distinct.map { intros[$0.digest] ?? record.version }).map { distinct[$0] }
    }

    /// The LMFO record of version `version` of `bundle`, whose scopes (nil: the whole
    /// version) hold `scopes`' objects (sorted by digest, distinct), given the versions
    /// that exist before it. From the newest earlier version's record when that record
    /// still describes the versions below it (work proportional to files); otherwise
    /// from the manifests, as far back as runs reach (see `LMFORecord`).
    func lmfoRecord(bundle: String, version: Int, earlierVersions: [Int], scopes: [String?: [SHA1.Digest]]) throws -> LMFORecord {
        let earlier = earlierVersions.filter { $0 < version }.sorted()
        var intros = [String: [SHA1.Digest: Int]]()
        if let previous = earlier.last, let record = try usableRecord(bundle: bundle, version: previous, below: earlier.dropLast()) {
            for (flavor, digests) in scopes {
                let held = record.scopes[LMFORecord.key(flavor)] ?? [:]
                intros[LMFORecord.key(flavor)] = Dictionary(uniqueKeysWithValues: digests.map { ($0, held[$0] ?? version) })
            }
        } else {
            for (flavor, digests) in scopes {
                let computed = try LMFOOrder.intros(sorted: digests, version: version, earlierVersions: earlier) { earlier in
                    try objectDigests(bundle: bundle, version: earlier, flavor: flavor)
                }
                intros[LMFORecord.key(flavor)] = Dictionary(uniqueKeysWithValues: zip(digests, computed))
            }
        }
        return LMFORecord(version: version, earlierVersions: earlier, scopes: intros)
    }

    /// Writes the archives version `version` of `bundle` should have and lacks (see
    /// `archiveScopes`; the all-files archive of a flavored version only at import) from
    /// its stored objects, byte for byte as its import would have: in the order of its
    /// LMFO record, written at import whether or not archives were, or without a usable
    /// one (versions written by other tools) in the order the versions listed below it
    /// now give. Flushed before it returns: a pointer may name the version next.
    /// Returns the paths written.
    @discardableResult
    func writeMissingArchives(bundle: String, version: Int) throws -> [String] {
        let manifest = try manifest(bundle: bundle, version: version)
        let files = VersionFiles(of: manifest)
        let missing = try Catalog.archiveScopes(of: manifest, includeMasterArchive: false).filter { scope in
            try !storage.exists(files.archive(scope))
        }
        guard !missing.isEmpty else { return [] }
        let objects = Dictionary(
            uniqueKeysWithValues: ([nil] + manifest.flavors).map { scope in
                (scope, StoredObject.distinctSorted(Array(manifest.objectsByDigest(flavor: scope).values)))
            })
        let record: LMFORecord
        if let stored = try storedRecord(bundle: bundle, version: version) {
            record = stored
        } else {
            record = try lmfoRecord(
                bundle: bundle, version: version, earlierVersions: index().bundle(bundle).versions,
                scopes: objects.mapValues { $0.map(\.digest) })
        }
        for scope in missing {
            do {
                try writeArchive(
                    files.archive(scope),
                    members: Catalog.archiveMembers(ofDistinct: objects[scope] ?? [], flavor: scope, record: record),
                    workers: 2 * AvailableCores.count, condition: .ifAbsent)
            } catch let error as ZincError where error == .versionFileExists("\(storage.location)/\(files.archive(scope))") {
                // Another writer built it meanwhile, from the same record: the same bytes.
            }
        }
        try storage.flush()
        return missing.map(files.archive)
    }

    /// The LMFO record stored for a version, nil when it is missing or damaged.
    func storedRecord(bundle: String, version: Int) throws -> LMFORecord? {
        let path = LMFORecord.path(bundle: bundle, version: version)
        guard let bytes = try storage.read(path) else { return nil }
        do {
            return try LMFORecord.parse(bytes, path: storage.location + "/" + path, version: version)
        } catch {
            logger.notice("\(error); computing the archive order from the manifests instead")
            return nil
        }
    }

    /// The record of `version` if it was computed over exactly the versions `below`
    /// (none were deleted or added under it since); nil otherwise, or when it is missing
    /// or damaged.
    private func usableRecord(bundle: String, version: Int, below: ArraySlice<Int>) throws -> LMFORecord? {
        guard let record = try storedRecord(bundle: bundle, version: version) else { return nil }
        return record.earlierVersions == Array(below) ? record : nil
    }

    /// Writes one archive: a ustar member per object, named like the object's file,
    /// holding the object's stored bytes (filled in parallel, see the storage's
    /// `append(pieces:)`). Members go out in batches so memory stays flat however many
    /// objects there are.
    func writeArchive(_ path: String, members: [StoredObject], workers: Int?, condition: WriteCondition) throws {
        let writer = try storage.makeWriter(for: path)
        defer { writer.discard() }
        var padding = [UInt8]()  // the previous member's padding goes out with the next header
        try storage.withBackgroundFlushes {
            for start in stride(from: 0, to: members.count, by: 1024) {
                var pieces = [WritePiece]()
                for member in members[start..<min(start + 1024, members.count)] {
                    pieces.append(.bytes(padding + (try TarHeader.encode(name: member.fileName, size: member.preferredSize))))
                    pieces.append(.storedFile(path: member.preferredPath, size: member.preferredSize))
                    padding = [UInt8](repeating: 0, count: Int(TarHeader.paddedLength(member.preferredSize) - member.preferredSize))
                }
                do {
                    try writer.append(pieces: pieces, workers: workers)
                } catch let mismatch as WritePieceMismatch {
                    throw ZincError.integrity(
                        path: storage.location + "/" + mismatch.path,
                        reason: "its size is \(mismatch.actual) bytes, the catalog recorded \(mismatch.expected)")
                }
            }
        }
        try writer.write(padding + [UInt8](repeating: 0, count: 2 * TarHeader.blockSize))
        // In a store that assembles files, mostly copied from the previous archive and the objects there.
        let assembled =
            try storage.properties.isRemote ? StoreAssembly(catalog: self).commit(writer, archive: members, condition: condition) : nil
        guard try assembled ?? writer.commit(condition) == .written else {
            throw ZincError.versionFileExists("\(storage.location)/\(path)")
        }
    }
}
