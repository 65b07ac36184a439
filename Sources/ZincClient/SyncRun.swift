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

/// What a run does with each tracked bundle.
package enum RunMode: Sendable {
    /// Moves it to its distribution's version.
    case follow
    /// Moves it to the version a plan gives.
    case following(SyncPlan)
    /// Plans its move, and makes none.
    case plan
    /// Plans its move as `plan` does, and lists its downloads for another downloader
    /// (`DownloadPlan`).
    case exportDownloads
    /// Moves it to the version the downloads were planned for, taking what they brought.
    case applying(DownloadPlan)
    /// Leaves it at its version, every object hashed and the damaged fetched again.
    case repair
    /// Tracks the bundle a seed folder holds and moves it to the seed's version from the
    /// seed's files, with no request (`Repo.seed`).
    case seed(SeedRequest)

    var isPlanning: Bool {
        switch self {
        case .plan, .exportDownloads: true
        default: false
        }
    }
    var isRepair: Bool { if case .repair = self { true } else { false } }
    var isSeed: Bool { if case .seed = self { true } else { false } }

    /// The plan a run that follows one follows.
    var approved: SyncPlan? {
        switch self {
        case .following(let plan): plan
        case .applying(let downloads): downloads.approved
        default: nil
        }
    }
}

/// One run of the engine, under the repo lock: the repo's state and what the run learns
/// (its report or plan, the link's measure, the store's check, the objects of the
/// versions read) belong to it while each catalog's index is refreshed and each bundle
/// is planned, carried out and switched, and go to disk at its end, the collection last.
struct SyncRun {
    let repo: Repo
    let options: SyncOptions
    let mode: RunMode
    var state: RepoState
    var report = SyncReport()
    var plan = SyncPlan()
    /// The downloads of an export run.
    var downloads = [DownloadPlan.Request]()
    var links: LinkRecords
    /// The links as the last sync kept them: saved again only when this run changed them.
    let recordedLinks: LinkRecords
    var check: StoreCheck
    /// The objects of the versions this sync read, by manifest file: the collection at
    /// the end reads no file again.
    var inUse = [String: VersionObjects]()
    /// The manifest files (keys of `inUse`) of the versions whose folder this run built
    /// whole, linking every object: vouched for at its end.
    var builtWhole = [String]()
    /// Whether the store held only what the tracked versions use when the run began
    /// (the last collection left nothing, and nothing since added anything).
    let beganCollected: Bool
    /// The versions as the run found them, to tell which left the repo.
    let startingBundles: [RepoState.TrackedBundle]
    /// The objects of the spare versions the run brought to a new version that the new
    /// one may not hold (those of the files it changed or removed), by folder name: of a
    /// version that leaves the repo, the only ones that may lose their last user.
    var departing = [String: [SHA1.Digest]]()
    /// Old folders the last sync set aside, going while this one waits on the network.
    let emptying: Task<Void, Never>
    /// What a seed run did.
    var seeded = SeedOutcome()
    /// Counts the downloads of every bundle, for `options.progress`.
    let progress: SyncMeter

    /// A run of `repo`, which must hold the lock: its state read, and its trash being emptied.
    init(repo: Repo, options: SyncOptions, mode: RunMode) throws {
        self.repo = repo
        self.options = options
        self.mode = mode
        state = try repo.loadState()
        startingBundles = state.bundles
        beganCollected = !GarbageCollector.isNeeded(in: repo)
        links = LinkRecords.load(from: repo.root)
        recordedLinks = links
        check = StoreCheck(repo: repo, thorough: mode.isRepair)
        emptying = Trash(repo: repo).startEmptying()
        progress = SyncMeter(report: options.progress)
    }

    /// Every tracked catalog in turn (a seed run: the seed's bundle), then what the run
    /// keeps for the next one.
    mutating func run() async throws {
        do {
            if case .seed(let request) = mode {
                try await seed(request)
            } else {
                for catalog in Set(state.bundles.map(\.catalog)).sorted() {
                    try await sync(catalog: catalog)
                }
            }
        } catch {
            await emptying.value
            throw error
        }
        await emptying.value
        try finish()
    }

    /// Keeps the links, the state (of a plan) or the damage found, collects what nothing
    /// uses (unless planning), and saves the objects' stamps.
    private mutating func finish() throws {
        // Only hints for the next sync: failing to keep them fails nothing.
        if links != recordedLinks { try? links.save(in: repo.root) }
        // What the sync did not take would be read by no other.
        if case .applying(let taken) = mode { taken.removeLeftovers(in: repo) }
        if mode.isPlanning {
            // The indexes refreshed, kept with their validators for the sync to come.
            try state.save(in: repo.root)
            check.saveStamps()
            return
        }
        // Failing to keep the record costs a damaged folder its rebuild until a check finds it again.
        try? check.saveDamage(of: state)
        // Vouched for as the stamps are saved, from the list the collection keeps: no
        // verdict for each object (a first sync's took 2.3 MB at 100,000 files).
        let built = builtWhole.compactMap { inUse[$0] }
        // A run that found every bundle up to date left nothing to remove, unless an
        // earlier one did.
        if GarbageCollector.isNeeded(in: repo) {
            let removed = try GarbageCollector(repo: repo).collect(
                state, downloads: !report.failed, inUse: inUse, mayBeUnused: mode.isRepair ? nil : mayBeUnused())
            check.forget(removed.removedObjects)
            report.removedFolders = removed.folders
            report.removedObjects = removed.objects
        }
        // Needed by the collection alone: gone before the stamps are read to be saved.
        inUse = [:]
        // After the links and removals, which change the objects' status-change times.
        check.saveStamps(vouched: built)
    }

    /// Every object that may have lost its last user in this run, when the run knows
    /// them all: the store began collected and every version that left the repo was a
    /// spare brought to the new one (`departing`). Nil otherwise: the collection then
    /// lists the whole store.
    private func mayBeUnused() -> [SHA1.Digest]? {
        guard beganCollected else { return nil }
        var objects = [SHA1.Digest]()
        for before in startingBundles {
            let after = state.bundles.first {
                ($0.catalog, $0.bundle, $0.flavor) == (before.catalog, before.bundle, before.flavor)
            }
            let kept = [after?.version, after?.spareVersion]
            for version in [before.version, before.spareVersion].compactMap({ $0 }) where !kept.contains(version) {
                let name = Repo.descriptor(catalog: before.catalog, bundle: before.bundle, version: version, flavor: before.flavor)
                guard let left = departing[name] else { return nil }
                objects += left
            }
        }
        return objects
    }

    /// Refreshes `catalog`'s index and brings its bundles along, through one chain of its
    /// sources whose measure of the link is kept whatever happens.
    private mutating func sync(catalog: String) async throws {
        let chain = SourceChain(
            catalog: catalog, sources: try (state.catalogs[catalog]?.urls ?? []).map(options.sourceFactory),
            temporaryFolder: repo.temporaryFolder, links: links, cancellation: options.cancellation)
        do {
            try await sync(catalog: catalog, via: chain)
        } catch {
            await chain.measured(into: &links)
            throw error
        }
        await chain.measured(into: &links)
    }

    private mutating func sync(catalog: String, via chain: SourceChain) async throws {
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

        // Every bundle is planned before any downloads, so that progress counts the
        // catalog's bytes from the first.
        var pending = [PendingBundle]()
        for i in state.bundles.indices where state.bundles[i].catalog == catalog {
            let tracked = state.bundles[i]
            var forced = options.strategy
            var pinned: Int?
            switch mode {
            case .repair:
                // A repair leaves a bundle never checked out alone.
                guard let current = tracked.version else { continue }
                pinned = current
            case .following, .applying:
                // A bundle the plan does not move is left alone.
                guard let planned = mode.approved?.plan(catalog: catalog, bundle: tracked.bundle), let version = planned.version,
                    planned.action != .failed
                else { continue }
                pinned = version
                forced = planned.strategy ?? forced
            case .follow, .plan, .exportDownloads, .seed:
                break
            }
            var result = SyncReport.BundleSync(
                catalog: catalog, bundle: tracked.bundle, flavor: tracked.flavor,
                previousVersion: tracked.version)
            var planned = BundlePlan(catalog: catalog, bundle: tracked.bundle, flavor: tracked.flavor, currentVersion: tracked.version)
            let start = ContinuousClock.now
            let traffic = TrafficAccount()
            var preparation: PendingBundle.Preparation?
            var update: PreparedUpdate?
            do {
                let version: Int
                if let pinned {
                    version = pinned
                } else {
                    // The catalog's failure is each of its bundles'.
                    guard let index else {
                        throw refresh.failure ?? SyncError(ClientError.allSourcesFailed(catalog: catalog, failures: []))
                    }
                    // The rollout picks the version before anything is planned.
                    let entry = try index.bundle(tracked.bundle)
                    let pointer = try VersionSpec.distro(tracked.distro).resolve(in: entry, name: tracked.bundle)
                    let choice = try await traffic.charging { try await follow(i, entry: entry, pointer: pointer, chain: chain) }
                    version = choice.version
                    result.follows = FollowedVersion(ifRollout: choice)
                    planned.follows = result.follows
                }
                result.version = version
                planned.version = version
                let keys = state.catalogs[catalog]?.trustedKeys ?? []
                let checks = keys.isEmpty ? nil : SignatureChecks(catalog: catalog, keys: keys, chain: chain)
                // From the newest version below it, the objects new since are exactly the
                // front of the archive (FORMAT.md): its order needs no record.
                let below = index.flatMap { try? $0.bundle(tracked.bundle).versions.filter { $0 < version }.max() }
                let given = PendingBundle.Preparation(
                    version: version, forced: forced, follows: below != nil && below == tracked.version, checks: checks)
                preparation = given
                update = try await traffic.charging { try await prepare(given, of: tracked, chain: chain, result: &result) }
                update?.describe(&planned)
                if update == nil { planned.action = .upToDate }
                if case .exportDownloads = mode, let update { downloads += try requests(of: update, via: chain) }
            } catch {
                // A cancelled sync stops here, leaving what a killed one would.
                try options.cancellation?.check()
                result.outcome = .failed
                result.failure = SyncError(error, repo: repo)
                planned.failure = result.failure
            }
            if mode.isPlanning {
                plan.bundles.append(planned)
                continue
            }
            if let update, options.maxBytes.map({ update.bytes <= $0 }) ?? true { progress.expect(update.fetchBytes) }
            pending.append(
                PendingBundle(
                    index: i, result: result, update: update, preparation: preparation, traffic: traffic,
                    elapsed: ContinuousClock.now - start))
        }

        // An earlier bundle's download may bring objects a later one planned to fetch.
        var downloaded = false
        for var bundle in pending {
            let i = bundle.index
            let start = ContinuousClock.now
            if bundle.result.failure == nil {
                do {
                    if let update = bundle.update {
                        if let budget = options.maxBytes, update.bytes > budget {
                            bundle.result.outcome = .skipped
                            bundle.result.plannedBytes = update.bytes
                        } else {
                            await emptying.value  // its space free before any download needs it
                            try await download(update, of: &bundle, chain: chain, downloaded: &downloaded)
                        }
                    } else {
                        bundle.result.outcome = .upToDate
                    }
                    // Also after an up-to-date or skipped one: a repo made before the links gets them.
                    if let current = state.bundles[i].version { try CurrentLinks.point(state.bundles[i], at: current, in: repo) }
                } catch {
                    // A cancelled sync stops here, leaving what a killed one would.
                    try options.cancellation?.check()
                    bundle.result.outcome = .failed
                    bundle.result.failure = SyncError(error, repo: repo)
                }
            }
            bundle.result.requests = bundle.traffic.requests
            bundle.result.bytes = bundle.traffic.bytes
            bundle.result.seconds = (bundle.elapsed + (ContinuousClock.now - start)).inSeconds
            report.bundles.append(bundle.result)
        }
    }

    /// The version bundle `i` follows: the one its distribution's pointer names, or the
    /// one its rollout gives this install. The rollout file's serial and validator are
    /// kept at once, so that a later failure does not forget them.
    private mutating func follow(_ i: Int, entry: CatalogIndex.BundleEntry, pointer: Int, chain: SourceChain) async throws
        -> RolloutChoice
    {
        let reader = RolloutReader(
            repo: repo, keys: state.catalogs[state.bundles[i].catalog]?.trustedKeys ?? [], now: Int64(Date().timeIntervalSince1970))
        var tracked = state.bundles[i]
        let verdict = try await reader.refresh(&tracked, entry: entry, via: chain)
        if tracked != state.bundles[i] {
            state.bundles[i] = tracked
            try state.save(in: repo.root)
        }
        guard verdict != .none else { return RolloutChoice(version: pointer, reason: .noRollout) }
        return reader.choice(verdict, held: tracked.version, pointer: pointer, install: try install())
    }

    /// Who this install is to a rollout for this sync: the repo's identity, made now for
    /// a repo of an earlier client, with the sync's attributes set over its own.
    private mutating func install() throws -> InstallIdentity {
        let install = try state.install ?? InstallIdentity(id: InstallIdentity.randomID())
        if state.install == nil {
            state.install = install
            try state.save(in: repo.root)
        }
        return install.with(options.attributes)
    }

    /// What to fetch to bring `tracked` to `version`, found without downloading any
    /// object; nil when the version is checked out and sound. Unless planning, an
    /// object found damaged is removed (to be fetched again). `follows`: the bundle is at
    /// the newest version below `version`.
    mutating func prepare(
        _ tracked: RepoState.TrackedBundle, to version: Int, forced: FetchStrategy?, follows: Bool, chain: SourceChain,
        checks: SignatureChecks?, result: inout SyncReport.BundleSync
    ) async throws -> PreparedUpdate? {
        let planning = mode.isPlanning
        let name = Repo.descriptor(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        let folder = repo.bundlePath(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        let manifestFile = repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: version)
        // The version checked out, which no check found damaged: trusted as built, with two
        // `stat`s whatever its size (`status` finds damage and records it for this test).
        if tracked.version == version, check.trusts(folder: name), access(folder, F_OK) == 0, access(manifestFile, F_OK) == 0 {
            return nil
        }
        // What follows may fetch a manifest or build a folder, for the collection to remove.
        if !planning { try GarbageCollector.willBeNeeded(in: repo) }
        if !planning { progress.planning(name) }
        let manifests = ManifestFetcher(repo: repo, limit: options.documentLimit, checks: checks, parallel: options.concurrency)
        // A repair reads the kept manifest once: to judge the folder, then to rebuild it,
        // and gathers its objects (and counts its files) once.
        var kept: ManifestFetcher.Kept?
        var judgedObjects: (objects: VersionObjects, files: Int)?
        // A folder judged looks up the stamp of each of its files: read while its manifest is.
        if tracked.version == version { check.startReading() }
        if tracked.version == version, FileManager.default.fileExists(atPath: folder),
            // A folder a check did not trust is judged by its manifest, whatever its table says.
            let judged = try manifests.kept(catalog: tracked.catalog, bundle: tracked.bundle, version: version, trust: .never)
        {
            kept = judged
            // Made once, for the judging and the repair that follows (`sizesLater`). The
            // verdicts on them take 2 bits each, however many are hashed: a repair hashes
            // every one, and so does a check whose stamps all changed (the trash emptied
            // beside it unlinks a folder of links to them).
            let gathered = try Self.objects(of: judged.files, flavor: tracked.flavor, withSizes: false)
            inUse[manifestFile] = gathered.objects
            judgedObjects = gathered
            check.judgeWhole(gathered.objects)
            // Writable files are the app's to change: only the objects are the repo's to check.
            // The others are judged as `status` judges them, from the version's rows one at
            // a time, none of them held.
            let expected: FolderScan.Files = { file in
                var rows = try judged.files.rows(flavor: tracked.flavor)
                while try rows.next() { rows.path.withUnsafeBufferPointer { file($0, rows.object.digest) } }
            }
            result.damagedFiles = tracked.writableFiles ? [] : try FolderScan(folder, expected: expected, check: &check).damaged
            if result.damagedFiles.isEmpty {
                if !planning { check.record(folder: name, damaged: false) }
                return nil
            }
        }
        // While the manifest is in flight, the chunk list is fetched beside it when the
        // repo holds chunks to reuse, and the LMFO record when the archive's
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
        // already). Without, every object is. A check that found the folder in use damaged (a
        // repair, or an update from a folder `status` recorded) may have found objects
        // damaged through their links, which the spare shares: then every object is
        // checked, and the spare's files of a damaged object are placed again too.
        let trusted = tracked.checkedOutFolder.map { check.trusts(folder: $0) } ?? false
        let tables: ManifestTable.Trust = checks == nil ? .nameAndSize : .manifestSHA256
        let spare = spareFolder(of: tracked, trust: tables)
        let checksEveryObject = tracked.version == version || !trusted
        // Read while the manifest is in flight.
        check.startReading()
        async let looked = { [repo, options] in
            // The version in use's files are not read here: the collection reads them from
            // its table when it lists the store, which it seldom does (an update keeps that
            // version as the spare), where gathering them held 20 bytes an object through
            // the whole sync (20 MB at 1,000,000). Only its header, when a record is to be
            // weighed.
            let header =
                wantsRecord
                ? tracked.version.flatMap {
                    try? ManifestTable.header(catalog: tracked.catalog, bundle: tracked.bundle, version: $0, in: repo, trust: tables)
                } : nil
            async let record =
                wantsRecord && header.map { LMFOHint.worthFetching(from: $0, limit: recordLimit) } == true
                ? chain.fetchHint(files.lmfoRecord, limit: recordLimit, gzipped: false) : nil
            let hint =
                try LocalChunks.exist(in: repo) ? await chain.fetchHint(chunkListPath, limit: options.documentLimit) : nil
            return (hint, await record)
        }()
        var deltaFallBack: String?
        let fetched = try await manifests.manifest(
            catalog: tracked.catalog, bundle: tracked.bundle, version: version,
            earlier: [tracked.version, spare?.version].compactMap { $0 }, known: kept, via: chain
        ) { deltaFallBack = $0 }
        result.manifestDeltaError = deltaFallBack
        let (hint, record) = try await looked
        let header = fetched.header
        try header.requireFlavor(tracked.flavor)
        var changes = try spare.flatMap { spare in
            try spare.files.changes(to: fetched.files).map { try BundleCheckout.Spare(folder: spare.folder, validating: $0) }
        }
        // The version's files are read as a stream from its table, never held: a folder
        // built whole places them a row at a time, a spare is brought to it file by file,
        // and a seed run finds its objects' files among the rows as they stream by.
        // A record is priced by every member's size; a version built whole, or checked
        // whole, checks (and may fetch) every object, with its sizes, but the folder in use
        // judged damaged (a repair, a folder a check found damaged), which fetches the few
        // objects it finds damaged: the sizes of those read from the rows once they are
        // known (its objects take 20 bytes each, not 32).
        let sizesLater = judgedObjects != nil && record == nil
        let withSizes = !sizesLater && (changes == nil || checksEveryObject || record != nil)
        let objects: VersionObjects
        let fileCount: Int
        if fetched.isKnown, let judgedObjects, !withSizes {
            (objects, fileCount) = judgedObjects
        } else {
            // A list without sizes goes before the one with them is made.
            inUse[manifestFile] = nil
            (objects, fileCount) = try Self.objects(of: fetched.files, flavor: tracked.flavor, withSizes: withSizes)
        }
        inUse[manifestFile] = objects
        var damagedObjects = Set<SHA1.Digest>()
        // A folder built whole links every object, each stamped afresh at the end with the
        // version's list (`builtWhole`): an object hashed sound needs no verdict until then
        // (in a copied repo, whose stamps all changed, every object's: 23 MB at 1,000,000).
        let buildsWhole = changes == nil && !planning
        /// Whether `digest` is to be fetched: missing, or damaged (then never a version
        /// built from it, and removed).
        func lacks(_ digest: SHA1.Digest) throws -> Bool {
            switch try check.object(digest, rememberingSound: !buildsWhole) {
            case .sound: return false
            case .missing: return true
            case .damaged:
                if !planning { try check.discard(digest) }
                result.damagedObjects.append(digest)
                damagedObjects.insert(digest)
                return true
            }
        }
        var missing: [StoredObject]
        if sizesLater {
            missing = []
            for digest in objects.digests {
                if try lacks(digest) { missing.append(StoredObject(digest: digest, sizes: Self.sizesToRead)) }
            }
            try Self.giveSizes(to: &missing, from: fetched.files, flavor: tracked.flavor)
        } else {
            // With a spare from a sound folder, only the objects of the files placed are looked at.
            let needed =
                if let changes, !checksEveryObject {
                    StoredObject.distinctSorted(changes.changes.place.map(\.object))
                } else {
                    objects.objects
                }
            // The objects to fetch: `needed` itself, shared rather than copied, while every one
            // judged is missing or damaged (a first sync's, 3.9 MB at 100,000 files); from the
            // first found sound, a list of their own.
            var missingSoFar: [StoredObject]?
            for (i, object) in needed.enumerated() {
                guard try lacks(object.digest) else {
                    if missingSoFar == nil {
                        // A first sync misses nearly every object: room for all, with no copy as it grows.
                        missingSoFar = []
                        missingSoFar?.reserveCapacity(tracked.version == nil ? needed.count : i)
                        missingSoFar?.append(contentsOf: needed[..<i])
                    }
                    continue
                }
                missingSoFar?.append(object)
            }
            missing = missingSoFar ?? needed
        }
        changes = try changes?.healing(paths: Set(result.damagedFiles), objects: damagedObjects, in: fetched.files, flavor: tracked.flavor)
        if let spare, let changes {
            departing[Repo.descriptor(catalog: tracked.catalog, bundle: tracked.bundle, version: spare.version, flavor: tracked.flavor)] =
                changes.changes.leaving
        }
        // What the signature says of the content of the objects placed alone, read per row.
        let signedContent =
            if let changes {
                try fetched.signedContent(of: changes.changes.place.lazy.map { (ordinal: Int($0.ordinal), digest: $0.object.digest) })
            } else { try fetched.signedContentOfFiles(flavor: tracked.flavor) }
        // A seed run's files come next, before anything is priced or fetched.
        try claimSeed(&missing, files: fetched.files, flavor: tracked.flavor, signedContent: signedContent, vouching: !buildsWhole)
        let archivePath = files.archive(tracked.flavor)
        let reader = archiveReader(archivePath, wanted: missing, members: objects, signedContent: signedContent, chain: chain)
        let partial = try reuse(partialArchive(name), missing: &missing, reader: reader)
        var chunked = try chunkedFetches(of: &missing, hint: hint, result: &result)
        let shape = FetchPlan.ArchiveShape(
            fileCount: fileCount, distinctMembers: objects.count, length: objects.archiveLength,
            memberSize: record == nil ? nil : { @Sendable digest in objects.size(of: digest) })
        let plan = FetchPlan.make(
            missing: missing, archive: shape, archivePath: archivePath, model: model, forced: forced,
            chunked: chunked?.assemblies.map(\.object) ?? [], partial: partial,
            memberOrder: follows
                ? .assumed : LMFOHint.order(record?.bytes, url: record?.url ?? "", version: version, flavor: tracked.flavor))
        // What the archive download carries whole is taken from it, not assembled as well.
        if let found = chunked {
            let left = plan.assembling(found.assemblies)
            chunked = left.isEmpty ? nil : ChunkedFetches(seeds: found.seeds, assemblies: left)
        }
        return PreparedUpdate(
            name: name, header: header, files: fetched.files, fileCount: fileCount,
            signedContent: signedContent, objects: objects, plan: plan,
            chunked: chunked, hintSizes: [hint?.size, record?.size].compactMap { $0 }, isRepair: tracked.version == version,
            leavesSoundFolder: trusted, spare: changes)
    }

    /// What an object to fetch holds until `giveSizes` gives it the sizes its rows say.
    private static let sizesToRead = StoredObject.Sizes(gz: -1, raw: 0)

    /// Gives each of `objects` (sorted by digest and distinct, each an object of `files` of
    /// `flavor`) the sizes its rows give it, in one pass over them.
    private static func giveSizes(to objects: inout [StoredObject], from files: VersionTable, flavor: String?) throws {
        guard !objects.isEmpty else { return }
        try files.forEachObject(flavor: flavor) { object in
            let i = objects.partitionPoint { $0.digest < object.digest }
            if i < objects.count, objects[i].digest == object.digest { objects[i] = object }
        }
    }

    /// The distinct objects of `files` of `flavor`, and how many files they are.
    private static func objects(of files: VersionTable, flavor: String?, withSizes: Bool) throws -> (objects: VersionObjects, files: Int) {
        var count = 0
        let objects = try VersionObjects(
            streaming: { object in
                count = 0
                try files.forEachObject(flavor: flavor) {
                    count += 1
                    object($0)
                }
            }, files: files.rowCount, withSizes: withSizes)
        return (objects, count)
    }

    /// The folder of `tracked`'s spare version, its version and its files (streamed from
    /// its kept manifest's table when `trust` takes it, else the manifest read as a
    /// stream), when both are there and the spare is not the version in use.
    private func spareFolder(of tracked: RepoState.TrackedBundle, trust: ManifestTable.Trust) -> (
        folder: String, version: Int, files: SpareFiles
    )? {
        guard !tracked.writableFiles, let version = tracked.spareVersion, version != tracked.version else { return nil }
        let folder = repo.bundlePath(catalog: tracked.catalog, bundle: tracked.bundle, version: version, flavor: tracked.flavor)
        guard access(folder, F_OK) == 0, let files = SpareFiles(tracked, version: version, in: repo, trust: trust) else { return nil }
        return (folder, version, files)
    }

    /// What a download of the version's archive that was cut short (a cut connection, a
    /// killed run) left in `part` serves whatever strategy this run picks: its complete
    /// members that `missing` lacks are verified into objects/ and leave `missing`, and
    /// its length is returned, for an archive strategy to resume after (0 with no part).
    /// A plan takes them too, so that it prices only what remains. A part whose bytes
    /// fail their check is removed: it costs its download again, never a wrong object.
    private mutating func reuse(_ part: String, missing: inout [StoredObject], reader: ArchivePrefixReader) throws
        -> Int64
    {
        var status = stat()
        guard !missing.isEmpty, lstat(part, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
        do {
            let taken = try reader.extract(from: PosixFile.open(part), taking: reader.everything)
            for i in reader.wanted.indices where taken.contains(i) { check.vouch(for: reader.wanted[i].digest) }
            missing = reader.left(after: taken)
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
        let seeds = try LocalChunks.index(repo, damaged: Set(result.damagedObjects.map(\.hex)))
        let (assemblies, whole) = ChunkAssembly.plan(missing, list: list) { seeds[$0] != nil }
        missing = whole
        return assemblies.isEmpty ? nil : ChunkedFetches(seeds: seeds, assemblies: assemblies)
    }
}

/// The objects of an update assembled from chunks, and the chunks they are assembled from.
struct ChunkedFetches: Sendable {
    let seeds: LocalChunks
    let assemblies: [ChunkAssembly]
}
