/// A version's archives: which a version gets, their names, their members in LMFO
/// order, and writing them.
extension Catalog {
    public static func archivePath(bundle: String, version: Int, flavor: String? = nil) -> String {
        "archives/\(bundle)-\(version)\(flavor.map { "~" + $0 } ?? "").tar"
    }

    /// The archives a version should have: the all-files archive when it has more than
    /// one file (skipped with flavors unless asked for), and one per flavor with more
    /// than one file. nil stands for the all-files archive.
    public static func archiveScopes(of manifest: Manifest, includeMasterArchive: Bool) -> [String?] {
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

    /// The members of an archive of version `version` in LMFO order, given its objects
    /// (repeats allowed) and the versions that exist before it. Kept as arrays sorted by
    /// sha rather than tables keyed by it: a version of 100,000 files is at its largest
    /// in memory while its archives are planned.
    func archiveMembers(of objects: [StoredObject], bundle: String, version: Int, flavor: String?,
                        earlierVersions: [Int]) throws -> [StoredObject] {
        var objects = objects
        objects.sort { $0.digest < $1.digest }
        var distinct = 0
        for i in objects.indices where distinct == 0 || objects[distinct - 1].digest != objects[i].digest {
            objects[distinct] = objects[i]
            distinct += 1
        }
        objects.removeLast(objects.count - distinct)
        let order = try LMFOOrder.positions(sorted: objects.map(\.digest), version: version,
                                            earlierVersions: earlierVersions) { earlier in
            try objectDigests(bundle: bundle, version: earlier, flavor: flavor)
        }
        return order.map { objects[$0] }
    }

    /// Writes one archive: a ustar member per object, named like the object's file,
    /// holding the object's stored bytes (copied in the kernel, members in parallel).
    /// Members go out in batches so memory stays flat however many objects there are.
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
                    throw ZincError.integrity(path: storage.location + "/" + mismatch.path,
                                              reason: "its size is \(mismatch.actual) bytes, the catalog recorded \(mismatch.expected)")
                }
            }
        }
        try writer.write(padding + [UInt8](repeating: 0, count: 2 * TarHeader.blockSize))
        guard try writer.commit(condition) == .written else {
            throw ZincError.conflict("'\(storage.location)/\(path)' already exists; another writer used this version number")
        }
    }
}
