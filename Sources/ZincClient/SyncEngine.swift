import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Brings every tracked bundle to the version its distro points at: index → version →
/// manifest → plan → fetch → checkout → switch, then removes what nothing uses. The
/// whole run holds the repo lock. Each bundle switches (repo.json) only after its new
/// folder is complete, so a kill at any moment leaves the previous version in use and
/// every verified object in place for the next run to skip.
///
/// The engine is async throughout: its requests in flight hold no thread (with a
/// transport that calls back, such as URLSession's), and its hashing and disk work run
/// on threads of its own (`executor`), never on the cooperative pool. Its blocking
/// methods, which the `zinc` command calls, wait for the same run.
public struct SyncEngine: Sendable {
    public let repo: Repo
    public let options: SyncOptions

    public init(repo: Repo, options: SyncOptions = SyncOptions()) {
        self.repo = repo
        self.options = options
    }

    /// Refreshes every tracked catalog, then brings every tracked bundle to the version its
    /// distribution names. One bundle's failure is reported and does not stop the others.
    /// On the way, each bundle's objects are checked (`StoreCheck`): one damaged on disk
    /// is fetched again, and a checked-out folder that no longer holds its objects' bytes
    /// is rebuilt, so "up to date" means what the app reads is what was verified.
    public func sync() throws -> SyncReport {
        try blocking(.follow).report
    }

    /// Carries out `plan`: each bundle it plans moves to the version planned, by the
    /// strategy planned (the cost model still decides for bundles planned without one);
    /// the others are left as they are.
    public func sync(following plan: SyncPlan) throws -> SyncReport {
        try blocking(.following(plan)).report
    }

    /// What ``sync()`` would do, without downloading any object (see ``SyncPlan``).
    public func plan() throws -> SyncPlan {
        try blocking(.plan).plan
    }

    /// Hashes every object of every checked-out version, fetches again those damaged or
    /// missing, and rebuilds the folders that do not hold their objects' bytes, leaving
    /// each bundle at its version: `zinc repo verify --repair`. The indexes are not
    /// fetched; the sources and trusted keys are those of the last sync.
    public func repair() throws -> SyncReport {
        try blocking(.repair).report
    }

    /// The threads the engine's work runs on: as many as the cores, so that objects are
    /// hashed in parallel. Shared by every sync in the process.
    static let executor = ThreadPoolExecutor()

    /// What a run does with each tracked bundle.
    package enum Mode: Sendable {
        /// Moves it to its distribution's version.
        case follow
        /// Moves it to the version a plan gives.
        case following(SyncPlan)
        /// Plans its move, and makes none.
        case plan
        /// Leaves it at its version, every object hashed and the damaged fetched again.
        case repair

        var isPlanning: Bool { if case .plan = self { true } else { false } }
        var isRepair: Bool { if case .repair = self { true } else { false } }
    }

    private func blocking(_ mode: Mode) throws -> (report: SyncReport, plan: SyncPlan) {
        try blockingWait(on: Self.executor) { [self] in try await run(mode) }
    }

    /// Runs the engine in `mode` on its executor; the async API's entry.
    package func run(_ mode: Mode) async throws -> (report: SyncReport, plan: SyncPlan) {
        try await withTaskExecutorPreference(Self.executor) { try await runHere(mode) }
    }

    private func runHere(_ mode: Mode) async throws -> (report: SyncReport, plan: SyncPlan) {
        try await repo.withLock(exclusive: true) {
            var state = try repo.loadState()
            var report = SyncReport()
            var plan = SyncPlan()
            var links = LinkRecords.load(from: repo.root)
            let recorded = links
            var check = StoreCheck(repo: repo, thorough: mode.isRepair)
            // The objects of the versions this sync read, by manifest file: the collection
            // below reads no file again.
            var parsed = [String: VersionObjects]()
            // Old folders the last sync set aside go while this one waits on the network.
            let emptying = Trash(repo: repo).startEmptying()
            do {
                for catalog in Set(state.bundles.map(\.catalog)).sorted() {
                    try await sync(
                        catalog: catalog, mode: mode, state: &state, links: &links, check: &check, parsed: &parsed,
                        report: &report, plan: &plan, trash: emptying)
                }
            } catch {
                await emptying.value
                throw error
            }
            await emptying.value
            // Only hints for the next sync: failing to keep them fails nothing.
            if links != recorded { try? links.save(in: repo.root) }
            if mode.isPlanning {
                // The indexes refreshed, kept with their validators for the sync to come.
                try state.save(in: repo.root)
                check.saveStamps()
                return (report, plan)
            }
            // Failing to keep the record costs a damaged folder its rebuild until a check finds it again.
            try? check.saveDamage(of: state)
            // A run that found every bundle up to date left nothing to remove, unless an
            // earlier one did.
            if GarbageCollector.isNeeded(in: repo) {
                let removed = try GarbageCollector(repo: repo).collect(state, downloads: !report.failed, inUse: parsed)
                check.forget(removed.removedObjects)
                report.removedFolders = removed.folders
                report.removedObjects = removed.objects
            }
            // After the links and removals, which change the objects' status-change times.
            check.saveStamps()
            return (report, plan)
        }
    }

    private func sync(
        catalog: String, mode: Mode, state: inout RepoState, links: inout LinkRecords, check: inout StoreCheck,
        parsed: inout [String: VersionObjects], report: inout SyncReport, plan: inout SyncPlan, trash: Task<Void, Never>
    ) async throws {
        let chain = SourceChain(
            catalog: catalog, sources: try (state.catalogs[catalog]?.urls ?? []).map(options.sourceFactory),
            temporaryFolder: repo.temporaryFolder, links: links, cancellation: options.cancellation)
        do {
            try await sync(
                catalog: catalog, via: chain, mode: mode, state: &state, check: &check, parsed: &parsed, report: &report,
                plan: &plan, trash: trash)
        } catch {
            await chain.measured(into: &links)
            throw error
        }
        await chain.measured(into: &links)
    }

    private func sync(
        catalog: String, via chain: SourceChain, mode: Mode, state: inout RepoState, check: inout StoreCheck,
        parsed: inout [String: VersionObjects], report: inout SyncReport, plan: inout SyncPlan, trash: Task<Void, Never>
    ) async throws {
        var refresh = SyncReport.CatalogRefresh(catalog: catalog)
        var index: CatalogIndex?
        let indexTraffic = TrafficAccount()
        if !mode.isRepair {
            do {
                index = try await indexTraffic.charging {
                    try await IndexFetcher(repo: repo, limit: options.documentLimit).refresh(
                        catalog, via: chain, state: &state, report: &refresh)
                }
            } catch {
                try options.cancellation?.check()
                refresh.failure = SyncError(error, repo: repo)
            }
        }
        refresh.bytes = indexTraffic.bytes
        refresh.requests = indexTraffic.requests
        let position = report.catalogs.count
        report.catalogs.append(refresh)
        defer {
            report.catalogs[position].link = chain.link
            report.catalogs[position].sourceFailures = chain.failures
            report.catalogs[position].sourceNotes = chain.notes
        }

        for i in state.bundles.indices where state.bundles[i].catalog == catalog {
            let tracked = state.bundles[i]
            var forced = options.strategy
            var pinned: Int?
            switch mode {
            case .repair:
                // A repair leaves a bundle never checked out alone.
                guard let current = tracked.version else { continue }
                pinned = current
            case .following(let approved):
                // A bundle the plan does not move is left alone.
                guard let planned = approved.plan(catalog: catalog, bundle: tracked.bundle), let version = planned.version,
                    planned.action != .failed
                else { continue }
                pinned = version
                forced = planned.strategy ?? forced
            case .follow, .plan:
                break
            }
            var result = SyncReport.BundleSync(
                catalog: catalog, bundle: tracked.bundle, flavor: tracked.flavor,
                previousVersion: tracked.version)
            var planned = BundlePlan(catalog: catalog, bundle: tracked.bundle, flavor: tracked.flavor, currentVersion: tracked.version)
            let start = ContinuousClock.now
            let traffic = TrafficAccount()
            do {
                let version: Int
                if let pinned {
                    version = pinned
                } else {
                    // The catalog's failure is each of its bundles'.
                    guard let index else {
                        throw refresh.failure ?? SyncError(ClientError.allSourcesFailed(catalog: catalog, failures: []))
                    }
                    version = try VersionSpec.distro(tracked.distro).resolve(in: try index.bundle(tracked.bundle), name: tracked.bundle)
                }
                result.version = version
                planned.version = version
                let keys = state.catalogs[catalog]?.trustedKeys ?? []
                let checks = keys.isEmpty ? nil : SignatureChecks(catalog: catalog, keys: keys, chain: chain)
                // From the newest version below it, the objects new since are exactly the
                // front of the archive (FORMAT.md): its order needs no record.
                let below = index.flatMap { try? $0.bundle(tracked.bundle).versions.filter { $0 < version }.max() }
                let update = try await traffic.charging {
                    try await prepare(
                        tracked, to: version, forced: forced, follows: below != nil && below == tracked.version, chain: chain,
                        checks: checks, check: &check, parsed: &parsed, planning: mode.isPlanning, result: &result)
                }
                update?.describe(&planned)
                if update == nil { planned.action = .upToDate }
                if mode.isPlanning {
                    plan.bundles.append(planned)
                    continue
                }
                if let update {
                    if let budget = options.maxBytes, update.bytes > budget {
                        result.outcome = .skipped
                        result.plannedBytes = update.bytes
                    } else {
                        await trash.value  // its space free before any download needs it
                        try await traffic.charging {
                            try await execute(update, for: &state.bundles[i], chain: chain, check: &check, result: &result)
                        }
                        try state.save(in: repo.root)  // the switch
                    }
                } else {
                    result.outcome = .upToDate
                }
                // Also after an up-to-date or skipped one: a repo made before the links gets them.
                if let current = state.bundles[i].version { try CurrentLinks.point(state.bundles[i], at: current, in: repo) }
            } catch {
                // A cancelled sync stops here, leaving what a killed one would.
                try options.cancellation?.check()
                result.outcome = .failed
                result.failure = SyncError(error, repo: repo)
                planned.failure = result.failure
                if mode.isPlanning {
                    plan.bundles.append(planned)
                    continue
                }
            }
            result.requests = traffic.requests
            result.bytes = traffic.bytes
            let elapsed = ContinuousClock.now - start
            result.seconds = elapsed.inSeconds
            report.bundles.append(result)
        }
    }

    /// What to fetch to bring `tracked` to `version`, found without downloading any
    /// object; nil when the version is checked out and sound. Unless `planning`, an
    /// object found damaged is removed (to be fetched again). `follows`: the bundle is at
    /// the newest version below `version`.
    private func prepare(
        _ tracked: RepoState.TrackedBundle, to version: Int, forced: FetchStrategy?, follows: Bool, chain: SourceChain,
        checks: SignatureChecks?, check: inout StoreCheck, parsed: inout [String: VersionObjects], planning: Bool,
        result: inout SyncReport.BundleSync
    ) async throws -> PreparedUpdate? {
        let name = Repo.descriptor(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        let folder = repo.bundleFolder(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        let manifestFile = repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: version)
        // The version checked out, which no check found damaged: trusted as built, with two
        // `stat`s whatever its size (`status` finds damage and records it for this test).
        if tracked.version == version, check.trusts(folder: name), access(folder, F_OK) == 0, access(manifestFile, F_OK) == 0 {
            return nil
        }
        // What follows may fetch a manifest or build a folder, for the collection to remove.
        if !planning { try GarbageCollector.willBeNeeded(in: repo) }
        check.startReading()
        if !planning { SyncMeter.announce(.planning, bundle: name, report: options.progress) }
        let manifests = ManifestFetcher(repo: repo, limit: options.documentLimit, checks: checks, parallel: options.concurrency)
        if tracked.version == version, FileManager.default.fileExists(atPath: folder),
            let (_, current) = try manifests.kept(catalog: tracked.catalog, bundle: tracked.bundle, version: version)
        {
            parsed[manifestFile] = current.objects(flavor: tracked.flavor, withSizes: false)
            // Writable files are the app's to change: only the objects are the repo's to check.
            result.damagedFiles = tracked.writableFiles ? [] : try check.damage(in: folder, files: current, flavor: tracked.flavor)
            if result.damagedFiles.isEmpty {
                if !planning { check.record(folder: name, damaged: false) }
                return nil
            }
        }
        // While the manifest is in flight, the objects of the version the bundle has are
        // looked at for the check below, the chunk list is fetched beside the manifest
        // when the repo holds chunks to reuse, and the LMFO record when the archive's
        // prefix may be fetched and the repo has a version to update from that is not the
        // one just before (the record costs a connection's handshake: it may arrive a
        // round trip after the manifest).
        let files = VersionFiles(bundle: tracked.bundle, version: version)
        let chunkListPath = files.chunkList
        let model = options.costModel ?? chain.link.costModel(concurrency: options.concurrency)
        let recordLimit = LMFOHint.limit(model: model, documentLimit: options.documentLimit)
        // Read as the plan read it, even when following a plan that pinned another
        // strategy: the plan counted the record, and a plan is the run.
        let wantsRecord = !follows && (options.strategy == nil || options.strategy == .lmfo)
        if !planning { chain.startProbes() }
        // With a spare folder to bring to the new version, only the files that differ are
        // linked: their objects are the only ones looked at (the others are in the spare
        // already). Without, every object is, those of the version in use listed while
        // the manifest is in flight. A check that found the folder in use damaged may have
        // found objects damaged through their links, which the spare shares: then the
        // whole version is built and checked.
        let trusted = tracked.checkedOutFolder.map { check.trusts(folder: $0) } ?? false
        let spare = tracked.version == version || !trusted ? nil : spareFolder(of: tracked)
        async let looked = { [repo, options] in
            // A manifest that cannot be read lists nothing: each object is looked at on disk.
            // With a spare, the version in use's files are not read here (the collection
            // reads them as a stream), only its header when a record is to be weighed.
            let document = {
                tracked.version.flatMap {
                    try? repo.checkedOutManifestDocument(catalog: tracked.catalog, bundle: tracked.bundle, version: $0)
                }
            }
            let current = spare != nil ? nil : document().flatMap { try? CompactManifest.read($0) }
            let header = current?.header ?? (spare != nil && wantsRecord ? document().flatMap { try? ManifestHeader.read($0) } : nil)
            let objects = current?.table.objects(flavor: tracked.flavor, withSizes: false)
            async let record =
                wantsRecord && header.map { LMFOHint.worthFetching(from: $0, limit: recordLimit) } == true
                ? chain.fetchHint(files.lmfoRecord, limit: recordLimit, gzipped: false) : nil
            let hint = try LocalChunks.exist(in: repo) ? await chain.fetchHint(chunkListPath, limit: options.documentLimit) : nil
            return (objects, objects.map { ObjectListing.of($0.digests, in: repo) } ?? ObjectListing(), hint, await record)
        }()
        var deltaFallBack: String?
        let fetched = try await manifests.manifest(
            catalog: tracked.catalog, bundle: tracked.bundle, version: version,
            earlier: [tracked.version, spare?.version].compactMap { $0 }, via: chain
        ) { deltaFallBack = $0 }
        result.manifestDeltaError = deltaFallBack
        let (currentObjects, listed, hint, record) = try await looked
        let (header, table) = (fetched.header, fetched.table)
        try header.requireFlavor(tracked.flavor)
        if let currentObjects, let current = tracked.version {
            parsed[repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: current)] = currentObjects
        }
        let changes = try spare.map { try BundleCheckout.Spare(folder: $0.folder, from: $0.files, to: table, flavor: tracked.flavor) }
        // A record is priced by every member's size; a version built whole checks (and
        // may fetch) every object, with its sizes.
        let objects = table.objects(flavor: tracked.flavor, withSizes: changes == nil || record != nil)
        parsed[manifestFile] = objects
        // With a spare, only the objects of the files placed are looked at.
        let needed = changes.map { Catalog.distinctSorted($0.changes.place.map(\.object)) } ?? objects.objects
        // What the signature says of the content of those objects alone, read per row.
        let signedContent = try fetched.signedContent(
            ofRows: changes.map { $0.changes.place.map(\.ordinal) } ?? table.ordinals(flavor: tracked.flavor))
        var missing = [StoredObject]()
        for object in needed {
            switch try check.object(object.digest, listed: listed) {
            case .sound: continue
            case .missing: missing.append(object)
            case .damaged:
                // Never a version built from it: fetched again, like a missing one.
                if !planning { try check.discard(object.digest) }
                result.damagedObjects.append(object.sha)
                missing.append(object)
            }
        }
        let archivePath = files.archive(tracked.flavor)
        let reader = archiveReader(archivePath, wanted: missing, members: objects, signedContent: signedContent, chain: chain)
        let partial = try reuse(partialArchive(name), missing: &missing, reader: reader, check: &check)
        let chunked = try chunkedFetches(of: &missing, hint: hint, result: &result)
        let shape = FetchPlan.ArchiveShape(
            fileCount: table.fileCount(flavor: tracked.flavor), distinctMembers: objects.count, length: objects.archiveLength,
            memberSize: record == nil ? nil : { @Sendable digest in objects.size(of: digest) })
        let plan = FetchPlan.make(
            missing: missing, archive: shape, archivePath: archivePath, model: model, forced: forced,
            chunked: chunked?.assemblies.map(\.object) ?? [], partial: partial,
            memberOrder: follows
                ? .assumed : LMFOHint.order(record?.bytes, url: record?.url ?? "", version: version, flavor: tracked.flavor))
        return PreparedUpdate(
            name: name, header: header, table: table, signedContent: signedContent, objects: objects, plan: plan,
            chunked: chunked, hintSizes: [hint?.size, record?.size].compactMap { $0 }, isRepair: tracked.version == version, spare: changes)
    }

    /// Downloads what `update` lacks, builds the version's folder and moves `tracked` to it.
    private func execute(
        _ update: PreparedUpdate, for tracked: inout RepoState.TrackedBundle, chain: SourceChain, check: inout StoreCheck,
        result: inout SyncReport.BundleSync
    ) async throws {
        let objects = TrafficAccount(within: SourceChain.account)
        let checkout = try BundleCheckout(
            update.header, update.table, catalog: tracked.catalog, flavor: tracked.flavor, writable: tracked.writableFiles,
            repo: repo, spare: update.spare)
        // The files the repo has are placed while the others download.
        async let placing = checkout.placeAvailable()
        let left: [Int]
        do {
            let fetched = await Result {
                try await objects.charging {
                    try await fetch(
                        update.plan, chunked: update.chunked, members: update.objects, signedContent: update.signedContent,
                        name: update.name, chain: chain, result: &result)
                }
            }
            // Placing runs to its end whatever the download did, as the folder's cleanup needs.
            left = try await placing
            try fetched.get()
        } catch {
            checkout.abandon()
            throw error
        }
        result.objectRequests = objects.requests
        result.objectBytes = objects.bytes
        try checkout.finish(left: left)
        // The version is built: what a cut download left of its archive has nothing more to give.
        unlink(partialArchive(update.name))
        for digest in checkout.touchedObjects { check.vouch(for: digest) }
        check.record(folder: update.name, damaged: false)
        result.outcome = update.isRepair ? .repaired : .updated
        if !update.isRepair {
            // The version left becomes the spare (its folder untouched, and no longer the
            // one `current/` names), unless its files are the app's own.
            tracked.spareVersion = tracked.writableFiles ? nil : tracked.version
        }
        tracked.version = update.version
        SyncMeter.announce(.finished, bundle: update.name, report: options.progress)
    }

    /// The folder of `tracked`'s spare version, its version and its files (from its kept
    /// manifest, read as a stream), when both are there and the spare is not the version in use.
    private func spareFolder(of tracked: RepoState.TrackedBundle) -> (folder: String, version: Int, files: CompactManifest)? {
        guard !tracked.writableFiles, let version = tracked.spareVersion, version != tracked.version else { return nil }
        let folder = repo.bundleFolder(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        guard access(folder, F_OK) == 0, let files = try? CompactManifest.read(tracked, version: version, in: repo) else { return nil }
        return (folder, version, files)
    }

    /// `catalog.bundle-version[~flavor].tar.part` in tmp/: the version's archive, as far
    /// as its download got. `name`: `catalog.bundle-version[~flavor]`.
    private func partialArchive(_ name: String) -> String { repo.temporaryFolder + "/" + name + ".tar.part" }

    /// A reader of the version's archive that takes `wanted` out of it.
    private func archiveReader(
        _ archivePath: String, wanted: [StoredObject], members: VersionObjects, signedContent: [SHA1.Digest: SHA256.Digest]?,
        chain: SourceChain
    ) -> ArchivePrefixReader {
        ArchivePrefixReader(
            repo: repo, wanted: Dictionary(wanted.map { ($0.digest, $0) }) { a, _ in a }, members: members,
            origin: "\(chain.catalog): \(archivePath)", signedContent: signedContent)
    }

    /// What a download of the version's archive that was cut short (a cut connection, a
    /// killed run) left in `part` serves whatever strategy this run picks: its complete
    /// members that `missing` lacks are verified into objects/ and leave `missing`, and
    /// its length is returned, for an archive strategy to resume after (0 with no part).
    /// A plan takes them too, so that it prices only what remains. A part whose bytes
    /// fail their check is removed: it costs its download again, never a wrong object.
    private func reuse(_ part: String, missing: inout [StoredObject], reader: ArchivePrefixReader, check: inout StoreCheck) throws
        -> Int64
    {
        var status = stat()
        guard !missing.isEmpty, lstat(part, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
        do {
            let taken = try reader.extract(from: PosixFile.open(part), taking: Set(missing.map(\.digest)))
            for digest in taken { check.vouch(for: digest) }
            missing.removeAll { taken.contains($0.digest) }
            return Int64(status.st_size)
        } catch  where error.isDamage {
            unlink(part)
            return 0
        }
    }

    /// The objects to assemble from chunks: each missing object the chunk list gives
    /// chunks of, some of them in the repo already. They leave `missing`, the objects to
    /// fetch whole. A chunk list that cannot be read is reported and costs whole objects.
    private func chunkedFetches(
        of missing: inout [StoredObject], hint: (bytes: [UInt8], url: String, size: Int64)?, result: inout SyncReport.BundleSync
    ) throws -> ChunkedFetches? {
        guard let hint, !missing.isEmpty else { return nil }
        let list: ChunkList
        do { list = try ChunkList.parse(hint.bytes, path: hint.url) } catch {
            result.chunkListError = "\(error)"
            return nil
        }
        guard missing.contains(where: { list.objects[$0.digest] != nil }) else { return nil }
        let seeds = try LocalChunks.index(repo, damaged: Set(result.damagedObjects))
        let (assemblies, whole) = ChunkAssembly.plan(missing, list: list) { seeds[$0] != nil }
        missing = whole
        return assemblies.isEmpty ? nil : ChunkedFetches(seeds: seeds, assemblies: assemblies)
    }

    /// Builds the `chunked` objects beside the plan's download of the others, then fetches
    /// whole those that could not be built. `name`: `catalog.bundle-version[~flavor]`, for
    /// the partial archive and progress, which counts both.
    private func fetch(
        _ plan: FetchPlan, chunked: ChunkedFetches?, members: VersionObjects,
        signedContent: [SHA1.Digest: SHA256.Digest]?, name: String, chain: SourceChain,
        result: inout SyncReport.BundleSync
    ) async throws {
        let assemblies = chunked?.assemblies ?? []
        guard !plan.missing.isEmpty || !assemblies.isEmpty else { return }
        let planBytes = plan.missing.isEmpty ? 0 : plan.transfers[plan.strategy]?.bytes ?? 0
        let meter = SyncMeter(
            bundle: name, totalObjects: plan.missing.count + assemblies.count,
            totalBytes: planBytes + assemblies.reduce(0) { $0 + $1.fetchedBytes }, report: options.progress)
        guard let chunked else {
            return try await fetch(
                plan, members: members, signedContent: signedContent, name: name, chain: chain, meter: meter, result: &result)
        }
        let fetcher = ChunkedObjectFetcher(
            repo: repo, chain: chain, seeds: chunked.seeds, signedContent: signedContent, parallel: options.concurrency)
        // The chunk ranges and the plan's downloads side by side, so their round trips overlap.
        async let assembled = concurrentMap(count: assemblies.count, limit: options.concurrency) { i in
            let outcome = try await fetcher.fetch(assemblies[i])
            if case .assembled = outcome { meter.finished(objects: 1, bytes: assemblies[i].fetchedBytes) }
            return outcome
        }
        let planned = await Result {
            try await fetch(
                plan, members: members, signedContent: signedContent, name: name, chain: chain, meter: meter, result: &result)
        }
        // Both run to their end; then the chunks' error, if any, is thrown, else the plan's.
        let outcomes = try await assembled
        try planned.get()
        var fallBacks = [StoredObject]()
        for (assembly, outcome) in zip(assemblies, outcomes) {
            switch outcome {
            case .assembled(let fetched, let reused):
                result.chunkedObjects += 1
                result.chunkBytes += fetched
                result.reusedBytes += reused
            case .fallBack(let reason):
                result.chunkFallBacks.append("\(assembly.object.sha): \(reason)")
                fallBacks.append(assembly.object)
            }
        }
        let whole = ObjectFetcher(repo: repo, chain: chain, signedContent: signedContent)
        meter.addBytesToFetch(fallBacks.reduce(0) { $0 + $1.preferredSize })
        _ = try await concurrentMap(count: fallBacks.count, limit: options.concurrency) { [fallBacks] i in
            try await whole.fetch(fallBacks[i])
            meter.finished(objects: 1, bytes: fallBacks[i].preferredSize)
        }
        result.individually += fallBacks.count
        result.missingObjects += assemblies.count
    }

    /// The plan's download of the objects to fetch whole.
    private func fetch(
        _ plan: FetchPlan, members: VersionObjects, signedContent: [SHA1.Digest: SHA256.Digest]?,
        name: String, chain: SourceChain, meter: SyncMeter, result: inout SyncReport.BundleSync
    ) async throws {
        guard !plan.missing.isEmpty else { return }
        result.strategy = plan.strategy
        result.estimates = plan.estimates
        result.missingObjects = plan.missing.count
        var remaining = Set(plan.missing.map(\.digest))
        let usesArchive = plan.strategy != .objects && plan.archivePath != nil
        let length = plan.strategy == .lmfo ? plan.prefixLength : plan.archiveLength
        if usesArchive, let archivePath = plan.archivePath {
            let part = partialArchive(name)
            do {
                let taken = try await extract(
                    archivePath, length: length, via: part,
                    reader: archiveReader(
                        archivePath, wanted: plan.missing, members: members, signedContent: signedContent, chain: chain),
                    chain: chain, meter: meter)
                result.fromArchive = taken.count
                remaining.subtract(taken)
                meter.finished(objects: taken.count, bytes: 0)
            } catch let error as ClientError where error.isArchiveUnavailable {
                // No archive for this version (another tool's catalog, or a flavored
                // bundle's skipped all-files archive): the objects are there one by one.
                // A cut connection is not this: the part stays for the next run to resume.
                result.archiveUnavailable = true
            }
        }
        let fetcher = ObjectFetcher(repo: repo, chain: chain, signedContent: signedContent)
        let individually = plan.missing.filter { remaining.contains($0.digest) }
        if usesArchive { meter.addBytesToFetch(individually.reduce(0) { $0 + $1.preferredSize }) }
        // Several in flight, so their round trips overlap; an object fetched completes
        // whatever happens to the others, and the next sync skips it.
        _ = try await concurrentMap(count: individually.count, limit: options.concurrency) { i in
            try await fetcher.fetch(individually[i])
            meter.finished(objects: 1, bytes: individually[i].preferredSize)
        }
        result.individually += individually.count
    }
}

extension SyncEngine {
    /// Downloads the first `length` bytes of an archive into `part` and verifies the
    /// members `reader` wants into objects/ as they arrive; returns the digests taken. Bytes that
    /// fail their check are fetched again from another source, if the catalog has one,
    /// for the members still missing; otherwise the error is thrown, the part removed (bad
    /// bytes would fail the same way on every rerun).
    fileprivate func extract(
        _ archivePath: String, length: Int64, via part: String, reader: ArchivePrefixReader, chain: SourceChain, meter: SyncMeter
    ) async throws -> Set<SHA1.Digest> {
        let wanted = Set(reader.wanted.keys)
        // Members verified already (before bad bytes or a cut connection stopped a pass) are
        // kept. The first pass has none: the plan found every wanted object missing.
        let kept = { wanted.filter { FileManager.default.fileExists(atPath: repo.objectFile($0.hex)) } }
        var verified = Set<SHA1.Digest>()
        while true {
            let earlier = verified
            // Made before the download starts, so that the reader can open it at once.
            _ = try PosixFile.open(part, flags: O_WRONLY | O_CREAT | O_NOFOLLOW)
            let arrival = GrowingFileReader.Arrival()
            // The members, as their bytes arrive, on a thread of their own, since reading a
            // growing file waits on it; nil when the pass stopped on bytes it could not place.
            let opened = try PosixFile.open(part)
            async let streaming = onWorkerThread {
                try? reader.extract(from: GrowingFileReader(opened, arrival: arrival), taking: wanted.subtracting(earlier))
            }
            let downloaded = await Result {
                defer { arrival.end() }
                // A range even for the whole archive: its length is known, and a foreign
                // writer's extra end padding is not worth fetching.
                return try await meter.watching(part, base: 0) {
                    try await chain.download(archivePath, to: part, length: length, ranged: true)
                }
            }
            let streamed = try await streaming
            let (_, source) = try downloaded.get()
            do {
                var taken = earlier.union(streamed ?? [])
                if streamed == nil {
                    // Wrong bytes, from this source or from one a cut-off download left
                    // behind: the finished part is read again, for the members not kept,
                    // so that an error is blamed on the source that served it.
                    taken = kept()
                    taken.formUnion(try reader.extract(from: PosixFile.open(part), taking: wanted.subtracting(taken)))
                }
                // Members the range cuts off are left for individual fetches.
                unlink(part)
                return taken
            } catch {
                unlink(part)
                guard error.isDamage, let source, chain.distrust(source, because: error) else { throw error }
                verified = kept()
            }
        }
    }
}

extension ClientError {
    var isArchiveUnavailable: Bool {
        switch kind {
        case .notFound, .httpStatus, .allSourcesFailed: return true
        default: return false
        }
    }
}

/// The objects of an update assembled from chunks, and the chunks they are assembled from.
struct ChunkedFetches: Sendable {
    let seeds: LocalChunks
    let assemblies: [ChunkAssembly]
}
