import Synchronization

/// One `verify` run. The sequential parts (index, manifests) record problems as they
/// go; objects and archives are checked in parallel, each returning its own problems.
/// The lanes share the verifier, so what it records is kept under a lock.
final class CatalogVerifier: Sendable {
    typealias Problem = VerificationReport.Problem

    let catalog: Catalog
    let workers: Int?
    let trustedKeys: [PublicKey]
    private let progress: (@Sendable (MaintenanceProgress) -> Void)?
    private let findings = Mutex(Findings())
    private var storage: CatalogStorage { catalog.storage }

    init(catalog: Catalog, trustedKeys: [PublicKey] = [], workers: Int?, progress: (@Sendable (MaintenanceProgress) -> Void)?) {
        self.catalog = catalog
        self.trustedKeys = trustedKeys
        self.workers = workers
        self.progress = progress
    }

    private struct Findings {
        var problems = [Problem]()
        /// The SHA-256 of each object's content, as the signatures of its manifests record it.
        var signedContent = [SHA1.Digest: SHA256.Digest]()
    }

    /// A version of a bundle, as a dictionary key.
    struct VersionKey: Hashable {
        let bundle: String
        let version: Int
    }

    private struct SelectedBundle {
        let name: String
        let entry: CatalogIndex.BundleEntry
        /// Set when only this version is checked.
        var onlyVersion: Int?

        var versions: [Int] { onlyVersion.map { [$0] } ?? entry.versions }
    }

    func run(_ scope: VerificationScope) throws -> VerificationReport {
        let index = try catalog.index()
        let selected: [SelectedBundle]
        switch scope {
        case .catalog:
            checkIndexFiles()
            selected = index.bundles.sorted { $0.key < $1.key }.map { SelectedBundle(name: $0.key, entry: $0.value) }
        case .bundle(let name):
            selected = [SelectedBundle(name: name, entry: try index.bundle(name))]
        case .version(let name, let spec):
            let entry = try index.bundle(name)
            selected = [SelectedBundle(name: name, entry: entry, onlyVersion: try spec.resolve(in: entry, name: name))]
        }

        for bundle in selected where bundle.onlyVersion == nil { checkDistributions(of: bundle) }
        // Parsing a manifest of thousands of files costs more than hashing its version's
        // archive of small files, so manifests are loaded in parallel too.
        let wanted = selected.flatMap { bundle in bundle.versions.map { VersionKey(bundle: bundle.name, version: $0) } }
        let loaded = try parallelMap(count: wanted.count, workers: workers) { i in
            var found = [Problem]()
            let manifest = self.loadManifest(bundle: wanted[i].bundle, version: wanted[i].version, catalogID: index.id, problems: &found)
            return (manifest, found)
        }
        var manifests = [Manifest]()
        for (manifest, found) in loaded {
            record(found)
            if let manifest { manifests.append(manifest) }
        }
        if !trustedKeys.isEmpty { checkSignatures(of: manifests, index: scope == .catalog) }
        let (objectCount, storedDigests) = try checkObjects(
            of: manifests, layouts: loadChunkLists(of: manifests), contentSizes: loadContentSizes(of: manifests))
        let allVersions = Dictionary(uniqueKeysWithValues: selected.map { ($0.name, $0.entry.versions) })
        // Which versions must have their archives (see `ArchivePolicy`): nil, every one.
        let rolloutCandidates = checkRollouts(index: index)
        let needingArchives = keepsAllArchives() ? nil : index.pointedVersions.union(rolloutCandidates)
        let (archiveCount, unarchived) = try checkArchives(
            of: manifests, allVersions: allVersions, needingArchives: needingArchives, storedDigests: storedDigests)
        return VerificationReport(
            problems: findings.withLock { $0.problems }, bundles: selected.count,
            versions: selected.reduce(0) { $0 + $1.versions.count },
            objects: objectCount, archives: archiveCount, unarchived: unarchived)
    }

    func report(_ path: String, _ problem: String) {
        record([Problem(path: path, problem: problem)])
    }

    func record(_ found: [Problem]) {
        findings.withLock { $0.problems += found }
    }

    /// Records the SHA-256 a signature gives an object's content; returns the one
    /// recorded before, if any.
    func recordSignedContent(_ sha256: SHA256.Digest, of sha1: SHA1.Digest) -> SHA256.Digest? {
        findings.withLock { $0.signedContent.updateValue(sha256, forKey: sha1) }
    }

    // MARK: Index

    /// All four index files must exist and hold the same bytes (the gz ones once
    /// gunzipped) as `catalog.json`, or as `index.json` in catalogs of the original tool.
    private func checkIndexFiles() {
        var contents = [String: [UInt8]]()
        for name in CatalogIndex.fileNames {
            do {
                guard let stored = try storage.read(name) else {
                    report(name, "missing")
                    continue
                }
                contents[name] = name.hasSuffix(".gz") ? try GzipDecompressor.decompress(stored) : stored
            } catch {
                report(name, Self.describe(error))
            }
        }
        if let recovery = try? catalog.readIndex().recovery {
            // The damage is the problem to report, not that the intact copies differ from it.
            contents["catalog.json"] = nil
            report(
                "catalog.json",
                "damaged (\(recovery.damage)); \(IndexRecovery.repairHint(for: storage.location)) restores it from \(recovery.source)")
        }
        guard let referenceName = ["catalog.json", "index.json"].first(where: { contents[$0] != nil }) else { return }
        // The parser keeps one of each version, so a version some writer listed twice
        // shows only in the raw JSON.
        for (bundle, version) in CatalogIndex.repeatedVersions(in: contents[referenceName]!) {
            report(referenceName, "version \(version) of '\(bundle)' is listed more than once")
        }
        for name in CatalogIndex.fileNames where name != referenceName {
            guard let bytes = contents[name], bytes != contents[referenceName] else { continue }
            report(
                name,
                name.hasSuffix(".gz")
                    ? "does not gunzip to the bytes of \(referenceName)"
                    : "differs from \(referenceName)")
        }
    }

    private func checkDistributions(of bundle: SelectedBundle) {
        for (distro, version) in bundle.entry.distributions.sorted(by: { $0.key < $1.key })
        where !bundle.entry.versions.contains(version) {
            report(
                "catalog.json", "distribution '\(distro)' of '\(bundle.name)' points at version \(version), which the index does not list")
        }
    }

    // MARK: Manifests

    /// The manifest of a listed version, or nil (with its problems recorded) when it is
    /// missing, unreadable or describes another version. Clients fetch the `.gz`, so it
    /// must exist; the plain file is optional, but must match when present.
    private func loadManifest(bundle: String, version: Int, catalogID: String, problems: inout [Problem]) -> Manifest? {
        func report(_ path: String, _ problem: String) { problems.append(Problem(path: path, problem: problem)) }
        let path = Manifest.path(bundle: bundle, version: version)
        let gzPath = path + ".gz"
        do {
            let plain = try storage.read(path)
            let packed = try storage.read(gzPath)
            var unpacked: [UInt8]?
            if let packed {
                do { unpacked = try GzipDecompressor.decompress(packed) } catch { report(gzPath, Self.describe(error)) }
            }
            switch (plain, packed) {
            case (nil, nil):
                report(path, "missing (the index lists version \(version) of '\(bundle)')")
                return nil
            case (.some, nil):
                report(gzPath, "missing")
            default:
                break
            }
            if let plain, let unpacked, plain != unpacked { report(gzPath, "does not gunzip to the bytes of \(path)") }
            guard let bytes = plain ?? unpacked else { return nil }
            let source = plain != nil ? path : gzPath
            let manifest = try Manifest.parse(bytes, path: source)
            if manifest.catalog != catalogID {
                report(source, "names catalog '\(manifest.catalog)', the index's id is '\(catalogID)'")
            }
            guard manifest.bundle == bundle, manifest.version == version else {
                report(source, "describes '\(manifest.bundle)' version \(manifest.version), not '\(bundle)' version \(version)")
                return nil
            }
            // Its chunks, with the bytes at hand: each manifest file is read once.
            problems += ManifestChunksCheck(catalog: catalog).problems(bundle: bundle, version: version, plain: bytes, gzipped: packed)
            return manifest
        } catch {
            report(path, Self.describe(error))
            return nil
        }
    }

    // MARK: Chunk lists

    /// Each version's chunk list, checked against its manifest: every object it lists is
    /// one of the version's, stored in the listed format, the chunks within its stored
    /// bytes. Returns the layouts to check against the objects' bytes, each once.
    private func loadChunkLists(of manifests: [Manifest]) -> [ObjectKey: [ObjectChunks]] {
        var layouts = [ObjectKey: [ObjectChunks]]()
        walkObjectLists(
            of: manifests, at: \.chunkList, read: { try catalog.readChunkList(bundle: $0.bundle, version: $0.version)?.objects }
        ) { path, digest, layout, object in
            guard layout.fits(object) else {
                report(path, "the \(layout.format.rawValue) chunks of \(digest.hex) do not fit in its stored bytes")
                return
            }
            let key = ObjectKey(digest: digest, format: layout.format)
            if !(layouts[key]?.contains(layout) ?? false) { layouts[key, default: []].append(layout) }
        }
        return layouts
    }

    // MARK: Objects

    /// An object file: the digest of its content and its stored format. Objects are
    /// keyed by this rather than by path: a catalog of 1,000 versions of 3,000 files
    /// names them three million times.
    struct ObjectKey: Hashable, Comparable {
        let digest: SHA1.Digest
        let format: ObjectFormat

        init(_ object: StoredObject) {
            self.init(digest: object.digest, format: object.preferredFormat)
        }

        init(digest: SHA1.Digest, format: ObjectFormat) {
            self.digest = digest
            self.format = format
        }

        var path: String { StoredObject.path(digest: digest, format: format) }

        /// The order of their paths: by digest, the raw file before the `.gz` one.
        static func < (a: ObjectKey, b: ObjectKey) -> Bool {
            a.digest != b.digest ? a.digest < b.digest : a.format == .raw && b.format == .gz
        }
    }

    /// One object file and what the manifests say about it.
    private struct ObjectReference {
        let key: ObjectKey
        /// Recorded size -> the first manifest recording it.
        var sizes: [Int64: String]

        /// What progress counts: the sizes differ only in a damaged catalog.
        var expectedSize: Int64 { sizes.keys.min()! }
    }

    /// Checks each object file once, however many manifests share it. Returns how many
    /// there were and, for each intact one, the SHA-1 of its stored bytes, which is what
    /// archive members must match. `contentSizes`: what sizes files say of gzipped objects.
    private func checkObjects(
        of manifests: [Manifest], layouts: [ObjectKey: [ObjectChunks]], contentSizes: [SHA1.Digest: [Int64: String]]
    ) throws
        -> (count: Int, storedDigests: [ObjectKey: SHA1.Digest])
    {
        var references = [ObjectKey: ObjectReference]()
        for manifest in manifests {
            func note(_ digest: SHA1.Digest, _ format: ObjectFormat, _ size: Int64) {
                guard size >= 0 else { return }  // not stored in this format
                let key = ObjectKey(digest: digest, format: format)
                if references[key]?.sizes[size] != nil { return }
                references[key, default: ObjectReference(key: key, sizes: [:])].sizes[size] = manifest.path
            }
            for entry in manifest.files.values {
                note(entry.object.digest, .gz, entry.object.sizes.gz)
                note(entry.object.digest, .raw, entry.object.sizes.raw)
            }
        }
        let ordered = references.keys.sorted().map { references[$0]! }
        let counter = ProgressCounter<MaintenanceProgress>(
            .checkingObjects, totalItems: ordered.count,
            totalBytes: ordered.reduce(0) { $0 + $1.expectedSize },
            report: progress)
        let results = try parallelMap(count: ordered.count, workers: workers) { i in
            let key = ordered[i].key
            let result = self.checkObject(
                ordered[i], layouts: layouts[key] ?? [], contentSizes: key.format == .gz ? contentSizes[key.digest] ?? [:] : [:])
            counter.finishedItem(bytes: ordered[i].expectedSize)
            return result
        }
        var digests = [ObjectKey: SHA1.Digest]()
        for (reference, result) in zip(ordered, results) {
            record(result.problems)
            digests[reference.key] = result.storedDigest
        }
        return (ordered.count, digests)
    }

    /// Checks an object file, and the chunk lists' `layouts` of it as its bytes stream past;
    /// then the content sizes the sizes files give it.
    private func checkObject(
        _ object: ObjectReference, layouts: [ObjectChunks], contentSizes: [Int64: String]
    ) -> (problems: [Problem], storedDigest: SHA1.Digest?) {
        let path = object.key.path
        func failed(_ problem: String) -> ([Problem], SHA1.Digest?) { ([Problem(path: path, problem: problem)], nil) }
        let firstReference = object.sizes.values.min()!
        do {
            guard let size = try storage.size(of: path), let reader = try storage.openForReading(path) else {
                return failed("missing (\(firstReference) refers to it)")
            }
            let wrongSizes = object.sizes.filter { $0.key != size }.sorted { $0.value < $1.value }
            if !wrongSizes.isEmpty {
                return (wrongSizes.map { Problem(path: path, problem: "is \(size) bytes, \($0.value) records \($0.key)") }, nil)
            }
            // Archive members are compared by stored bytes; for raw objects those are the content.
            let storedHash = object.key.format == .gz ? SHA1() : nil
            let signed = findings.withLock { $0.signedContent[object.key.digest] }
            let contentHash = signed.map { _ in SHA256() }
            var contentSize: Int64 = 0
            let decoder = StoredObjectDecoder(format: object.key.format) { content in
                contentHash?.update(content)
                contentSize += Int64(content.count)
            }
            let chunkChecks = layouts.map(ChunkLayoutCheck.init)
            try reader.forEachChunk { chunk in
                storedHash?.update(chunk)
                try decoder.update(chunk)
                for check in chunkChecks { check.update(chunk) }
            }
            let contentDigest = try decoder.finish()
            guard contentDigest == object.key.digest.hex else {
                return failed("its content hashes to \(contentDigest), not to its name")
            }
            if let problem = chunkChecks.lazy.compactMap({ $0.finish(contentSize: contentSize) }).first {
                return failed("does not match its chunk list: \(problem)")
            }
            if let signed, let contentHash, case let digest = contentHash.finalize(), digest != signed {
                return failed("its content's SHA-256 is \(digest), but its manifest's signature records \(signed) (tampered)")
            }
            let sizeProblems = Self.contentSizeProblems(contentSizes, sha: contentDigest, contentSize: contentSize)
            return (sizeProblems, storedHash?.digest() ?? object.key.digest)
        } catch {
            return failed(Self.describe(error))
        }
    }

    // MARK: Archives

    private struct ArchiveCheck {
        let path: String
        let manifest: Manifest
        /// A flavor, or nil for the all-files archive.
        let scope: String?
        /// Every listed version of the bundle, which the LMFO order depends on.
        let versions: [Int]
        let size: Int64?
        /// The version's LMFO record, when it is there and agrees with the manifests.
        let record: LMFORecord?
    }

    /// Whether the catalog keeps every version's archives; a damaged setting is a problem,
    /// and the default applies.
    private func keepsAllArchives() -> Bool {
        do { return try catalog.archivePolicy() == .all } catch {
            report(ArchivePolicy.path, Self.describe(error))
            return false
        }
    }

    /// Checks the archives of `manifests` (see `archiveChecks`) in parallel; returns how
    /// many, and how many versions no pointer names lack theirs.
    private func checkArchives(
        of manifests: [Manifest], allVersions: [String: [Int]], needingArchives: Set<BundleVersion>?,
        storedDigests: [ObjectKey: SHA1.Digest]
    ) throws -> (checked: Int, unarchived: Int) {
        let (checks, unarchived) = try archiveChecks(of: manifests, allVersions: allVersions, needingArchives: needingArchives)
        let counter = ProgressCounter<MaintenanceProgress>(
            .checkingArchives, totalItems: checks.count,
            totalBytes: checks.reduce(0) { $0 + ($1.size ?? 0) }, report: progress)
        let results = try parallelMap(count: checks.count, workers: workers) { i in
            let result = self.checkArchive(checks[i], storedDigests: storedDigests)
            counter.finishedItem(bytes: checks[i].size ?? 0)
            return result
        }
        record(Array(results.joined()))
        return (checks.count, unarchived)
    }

    /// Every archive a version must have (a version of `needingArchives`, nil for all;
    /// see `ArchivePolicy`), plus every other archive present (whether the all-files
    /// archive of a flavored version was asked for is not recorded); an archive whose
    /// size cannot be read is reported instead. Also how many other versions lack one.
    private func archiveChecks(
        of manifests: [Manifest], allVersions: [String: [Int]], needingArchives: Set<BundleVersion>?
    ) throws -> (checks: [ArchiveCheck], unarchived: Int) {
        let records = try checkedRecords(of: manifests, allVersions: allVersions)
        var checks = [ArchiveCheck]()
        var unarchived = 0
        for (manifest, record) in zip(manifests, records) {
            let named = needingArchives?.contains(BundleVersion(bundle: manifest.bundle, version: manifest.version)) ?? true
            let required = Catalog.archiveScopes(of: manifest, includeMasterArchive: false)
            var lacksOne = false
            for scope in Catalog.archiveScopes(of: manifest, includeMasterArchive: true) {
                let path = Catalog.archivePath(bundle: manifest.bundle, version: manifest.version, flavor: scope)
                do {
                    let size = try storage.size(of: path)
                    if size == nil && required.contains(scope) && !named { lacksOne = true }
                    if size == nil && !(required.contains(scope) && named) { continue }
                    checks.append(
                        ArchiveCheck(
                            path: path, manifest: manifest, scope: scope,
                            versions: allVersions[manifest.bundle] ?? [], size: size, record: record))
                } catch {
                    report(path, "cannot be checked: \(Self.describe(error))")
                }
            }
            if lacksOne { unarchived += 1 }
        }
        return (checks, unarchived)
    }

    private func checkArchive(_ archive: ArchiveCheck, storedDigests: [ObjectKey: SHA1.Digest]) -> [Problem] {
        var found = [String]()
        func note(_ problem: String) { found.append(problem) }
        var members = [(member: TarReader.Member, digest: SHA1.Digest)]()
        do {
            guard let reader = try storage.openForReading(archive.path) else {
                return [Problem(path: archive.path, problem: "missing")]
            }
            let tar = TarReader(reader, path: archive.path)
            while let member = try tar.next() {
                let hash = SHA1()
                guard try tar.readData({ hash.update($0) }) else { break }
                members.append((member, hash.digest()))
            }
            switch tar.ending {
            case .endOfStream?: note("ends at byte \(tar.position) without the end-of-archive blocks")
            case .truncated?: note("is truncated at byte \(tar.position)")
            case .endOfArchive?, nil: break
            }
        } catch {
            if let error = error as? ZincError, error.code == .corruptFile, let reason = error.reason {
                note(reason)
            } else {
                note(Self.describe(error))
            }
        }

        let objects = Array(archive.manifest.objectsByDigest(flavor: archive.scope).values)
        let expected = Dictionary(uniqueKeysWithValues: objects.map { ($0.fileName, $0) })
        var occurrences = [String: Int]()
        for (member, digest) in members {
            occurrences[member.name, default: 0] += 1
            guard let object = expected[member.name] else {
                note("holds unexpected member '\(member.name)'")
                continue
            }
            guard occurrences[member.name] == 1 else {
                if occurrences[member.name] == 2 { note("holds member '\(member.name)' more than once") }
                continue
            }
            if !member.isRegularFile {
                note("member '\(member.name)' is not a regular file (type '\(Character(Unicode.Scalar(member.typeFlag)))')")
            } else if member.size != object.preferredSize {
                note("member '\(member.name)' is \(member.size) bytes, the manifest records \(object.preferredSize)")
            } else if let stored = storedDigests[ObjectKey(object)], stored != digest {
                note("member '\(member.name)' differs from \(object.preferredPath)")
            }
        }
        let missing = expected.keys.filter { occurrences[$0] == nil }.sorted()
        for name in missing { note("lacks member '\(name)'") }
        if missing.isEmpty && members.count == expected.count {
            do {
                let order = members.map { expected[$0.member.name]!.digest }
                if let record = archive.record {
                    // Exactly the order the record gives: one file read, whatever the history.
                    let wanted = Catalog.archiveMembers(of: objects, flavor: archive.scope, record: record).map(\.digest)
                    if let i = order.indices.first(where: { order[$0] != wanted[$0] }) {
                        note(
                            "members are not in the LMFO order of \(LMFORecord.path(bundle: archive.manifest.bundle, version: archive.manifest.version)) "
                                + "from member \(i + 1) ('\(members[i].member.name)') on")
                    }
                } else if let i = try LMFOConformance.firstMisplaced(
                    order, version: archive.manifest.version,
                    earlierVersions: archive.versions,
                    objectsOf: { earlier in
                        try catalog.objectDigests(bundle: archive.manifest.bundle, version: earlier, flavor: archive.scope)
                    })
                {
                    note("members are not in LMFO order from member \(i + 1) ('\(members[i].member.name)') on")
                }
            } catch {
                note("its member order cannot be checked: \(error)")
            }
        }
        return found.map { Problem(path: archive.path, problem: $0) }
    }

    // MARK: Messages

    /// A version's document, as `read` gives it; nil when it is absent, or damaged (which
    /// is reported at `path`).
    func readReporting<Document>(_ path: String, _ read: () throws -> Document?) -> Document? {
        do { return try read() } catch {
            report(path, Self.describe(error))
            return nil
        }
    }

    /// What is wrong, in words fit to follow `<path>: `.
    static func describe(_ error: Error) -> String {
        switch error {
        case let failure as GzipDecompressor.Failure:
            return failure.description
        case let error as ZincError:
            switch (error.code, error.reason) {
            case (.corruptFile, let reason?): return "not a valid Zinc file: \(reason)"
            case (.invalidSignature, let reason?): return reason
            default: return "\(error)"
            }
        default:
            return "\(error)"
        }
    }
}
