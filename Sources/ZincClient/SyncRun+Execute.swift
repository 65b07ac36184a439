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

extension SyncRun {
    /// Downloads what `update` lacks, builds the version's folder and moves the tracked
    /// bundle `i` to it.
    mutating func execute(
        _ update: PreparedUpdate, bundle i: Int, chain: SourceChain, result: inout SyncReport.BundleSync
    ) async throws {
        let tracked = state.bundles[i]
        let objects = TrafficAccount(within: SourceChain.account)
        let checkout = try BundleCheckout(
            update.header, update.files, catalog: tracked.catalog, flavor: tracked.flavor, writable: tracked.writableFiles,
            repo: repo, spare: update.spare)
        // The files the repo has are placed while the others download.
        let assembled = (update.chunked?.assemblies.map(\.object.digest) ?? []).sorted()
        async let placing = checkout.placeAvailable(missing: update.plan.missing, assembled: assembled)
        let left: BundleCheckout.FilesLeft
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
        if update.spare == nil {
            // The folder links every object of the version: vouched for by `finish` from the
            // list the collection keeps, once the version's table and plan are gone.
            builtWhole.append(repo.manifestFile(tracked.catalog, bundle: tracked.bundle, version: update.version))
        } else {
            for digest in checkout.touchedObjects { check.vouch(for: digest) }
        }
        check.record(folder: update.name, damaged: false)
        result.outcome = update.isRepair ? .repaired : .updated
        if !update.isRepair {
            // The version left becomes the spare (its folder untouched, and no longer the
            // one `current/` names), unless its files are the app's own or a check found
            // them damaged (the collection sets it aside).
            state.bundles[i].spareVersion = tracked.writableFiles || !update.leavesSoundFolder ? nil : tracked.version
        } else if update.spare != nil {
            // A repair brought the spare to the version: the damaged folder went to the trash.
            state.bundles[i].spareVersion = nil
        }
        state.bundles[i].version = update.version
        progress.ended(update.name, expected: update.fetchBytes, finished: true)
    }

    /// `catalog.bundle-version[~flavor].tar.part` in tmp/: the version's archive, as far
    /// as its download got. `name`: `catalog.bundle-version[~flavor]`.
    func partialArchive(_ name: String) -> String { repo.temporaryFolder + "/" + name + ".tar.part" }

    /// A reader of the version's archive that takes `wanted` out of it.
    func archiveReader(
        _ archivePath: String, wanted: [StoredObject], members: VersionObjects, signedContent: [SHA1.Digest: SHA256.Digest]?,
        chain: SourceChain
    ) -> ArchivePrefixReader {
        ArchivePrefixReader(
            repo: repo, wanted: wanted, members: members, origin: "\(chain.catalog): \(archivePath)", signedContent: signedContent)
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
        let meter = progress
        meter.downloading(
            name, objects: plan.missing.count + assemblies.count, bytes: PreparedUpdate.fetchBytes(plan, chunked: chunked))
        guard let chunked else {
            return try await fetch(
                plan, members: members, signedContent: signedContent, name: name, chain: chain, meter: meter, result: &result)
        }
        let brought: DownloadedRanges? =
            if case .applying(let downloads) = mode { DownloadedRanges(downloads, in: repo) } else { nil }
        let fetcher = ChunkedObjectFetcher(
            repo: repo, chain: chain, seeds: chunked.seeds, signedContent: signedContent, parallel: options.concurrency,
            brought: brought)
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
        var left = plan.missing
        let usesArchive = plan.strategy != .objects && plan.archivePath != nil
        let length = plan.strategy == .lmfo ? plan.prefixLength : plan.archiveLength
        if usesArchive, let archivePath = plan.archivePath {
            let part = partialArchive(name)
            let reader = archiveReader(archivePath, wanted: plan.missing, members: members, signedContent: signedContent, chain: chain)
            do {
                let taken = try await extract(archivePath, length: length, via: part, reader: reader, chain: chain, meter: meter)
                let count = taken.count
                result.fromArchive = count
                left = reader.left(after: taken)
                meter.finished(objects: count, bytes: 0)
            } catch let error as ClientError where error.isArchiveUnavailable {
                // No archive for this version (another tool's catalog, or a flavored
                // bundle's skipped all-files archive): the objects are there one by one.
                // A cut connection is not this: the part stays for the next run to resume.
                result.archiveUnavailable = true
            }
        }
        let fetcher = ObjectFetcher(repo: repo, chain: chain, signedContent: signedContent)
        let individually = left
        if usesArchive { meter.addBytesToFetch(individually.reduce(0) { $0 + $1.preferredSize }) }
        // Several in flight, so their round trips overlap; an object fetched completes
        // whatever happens to the others, and the next sync skips it.
        _ = try await concurrentMap(count: individually.count, limit: options.concurrency) { i in
            try await fetcher.fetch(individually[i])
            meter.finished(objects: 1, bytes: individually[i].preferredSize)
        }
        result.individually += individually.count
    }

    /// Downloads the first `length` bytes of an archive into `part` and verifies the
    /// members `reader` wants into objects/ as they arrive; returns the digests taken. Bytes that
    /// fail their check are fetched again from another source, if the catalog has one,
    /// for the members still missing; otherwise the error is thrown, the part removed (bad
    /// bytes would fail the same way on every rerun).
    private func extract(
        _ archivePath: String, length: Int64, via part: String, reader: ArchivePrefixReader, chain: SourceChain, meter: SyncMeter
    ) async throws -> ObjectSelection {
        let wanted = reader.everything
        // Members verified already (before bad bytes or a cut connection stopped a pass) are
        // kept. The first pass has none: the plan found every wanted object missing.
        let kept = {
            ObjectSelection(count: reader.wanted.count) { FileManager.default.fileExists(atPath: repo.objectFile(reader.wanted[$0].sha)) }
        }
        var verified = ObjectSelection(count: reader.wanted.count) { _ in false }
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
                var taken = streamed.map(earlier.union) ?? earlier
                if streamed == nil {
                    // Wrong bytes, from this source or from one a cut-off download left
                    // behind: the finished part is read again, for the members not kept,
                    // so that an error is blamed on the source that served it.
                    let kept = kept()
                    taken = kept.union(try reader.extract(from: PosixFile.open(part), taking: wanted.subtracting(kept)))
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
        code == .notFound || code == .httpStatus || sourceFailures != nil
    }
}
