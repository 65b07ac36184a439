import Testing
import Zinc
import ZincTestSupport

/// The choice among objects, archive and LMFO prefix, by the cost model.
@Suite struct FetchPlanTests {
    static func object(_ n: Int, size: Int64) -> StoredObject {
        StoredObject(sha: String(repeating: String(n % 10), count: 40), formats: [.raw: size])
    }

    let bundle = (0..<10).map { object($0, size: 10_000) }

    @Test func oneMissingObjectIsFetchedByItself() {
        let plan = FetchPlan.make(
            missing: [bundle[3]], archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel())
        #expect(plan.strategy == .objects)
        #expect(plan.prefixLength == 512 + 10_240)
    }

    @Test func severalMissingObjectsComeFromTheLMFOPrefix() {
        let missing = Array(bundle[0..<4])
        let plan = FetchPlan.make(
            missing: missing, archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(requestOverhead: 4096))
        #expect(plan.strategy == .lmfo)
        #expect(plan.prefixLength == 4 * (512 + 10_240))
        #expect(plan.archiveLength == 10 * (512 + 10_240) + 1024)
        let expected: [FetchStrategy: Int64] = [
            .objects: 4 * 4096 + 40_000, .lmfo: 4096 + 4 * 10_752,
            .archive: 4096 + 10 * 10_752 + 1024,
        ]
        #expect(plan.estimates == expected)
    }

    /// A chunked object that the chosen download carries whole is taken from it (it joins
    /// the objects to fetch whole); with objects chosen, or an unknown member order, it
    /// stays to be assembled from its chunks.
    @Test func aChunkedObjectTheDownloadCarriesIsTakenWhole() {
        let (missing, chunked) = (Array(bundle[0..<4]), [bundle[4]])
        // Requests dear enough that the prefix beats four objects, the chunked one's bytes counted in it.
        let model = CostModel(requestOverhead: 16_384)
        let archive = "archives/B-2.tar"
        let prefix = FetchPlan.make(
            missing: missing, archiveObjects: bundle, fileCount: 10, archivePath: archive, model: model, chunked: chunked)
        #expect(prefix.strategy == .lmfo && prefix.takenWhole == chunked && prefix.missing == Array(bundle[0..<5]))
        #expect(prefix.prefixLength == 5 * (512 + 10_240))
        let whole = FetchPlan.make(
            missing: missing, archiveObjects: bundle, fileCount: 10, archivePath: archive, model: model, forced: .archive, chunked: chunked)
        #expect(whole.takenWhole == chunked && whole.missing.count == 5)
        for (forced, order) in [(FetchStrategy.objects, FetchPlan.MemberOrder.assumed), (.lmfo, .unknown)] {
            let plan = FetchPlan.make(
                missing: missing, archiveObjects: bundle, fileCount: 10, archivePath: archive, model: model, forced: forced,
                chunked: chunked, memberOrder: order)
            #expect(plan.takenWhole.isEmpty && plan.missing == missing, "\(forced)")
        }
    }

    /// A cut download left the archive's first 3.5 members: both archive strategies
    /// resume after them, and the prefix reaches past them by the two still missing (the
    /// member cut counted whole: a few bytes more than needed, never fewer).
    @Test func anArchiveAlreadyPartlyOnDiskIsPricedForTheRest() {
        let partial: Int64 = 3 * 10_752 + 5_000
        let plan = FetchPlan.make(
            missing: Array(bundle[3..<5]), archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(requestOverhead: 4096), partial: partial)
        #expect(plan.prefixLength == partial + 2 * 10_752)
        #expect(plan.transfers[.lmfo] == FetchPlan.Transfer(requests: 1, bytes: 2 * 10_752))
        #expect(plan.transfers[.archive] == FetchPlan.Transfer(requests: 1, bytes: 10 * 10_752 + 1024 - partial))
        #expect(plan.strategy == .lmfo)
    }

    @Test func requestsCostingNothingFavourObjects() {
        let plan = FetchPlan.make(
            missing: Array(bundle[0..<4]), archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(requestOverhead: 0))
        #expect(plan.strategy == .objects)
    }

    @Test func aSingleFileVersionHasNoArchiveToFetch() {
        let plan = FetchPlan.make(
            missing: [bundle[0]], archiveObjects: [bundle[0]], fileCount: 1,
            archivePath: "archives/B-2.tar", model: CostModel(), forced: .lmfo)
        #expect(plan.strategy == .objects)
        #expect(plan.archivePath == nil)
    }

    @Test func aForcedStrategyWins() {
        let plan = FetchPlan.make(
            missing: [bundle[0]], archiveObjects: bundle, fileCount: 10,
            archivePath: "archives/B-2.tar", model: CostModel(), forced: .archive)
        #expect(plan.strategy == .archive)
    }

    /// A link's round trip costs what it moves meanwhile; requests in flight together
    /// share one round trip, and those beyond the first pay one more to open their
    /// connections. Each request also costs its handling, a quarter of a millisecond of
    /// the link (625 bytes on a phone's), which concurrency does not share.
    @Test func aLinkPricesRoundsOfRequests() {
        let phone = CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 8)
        #expect(phone.requestOverhead == 250_000 && phone.concurrency == 8 && phone.requestHandling == 625)
        #expect(phone.cost(requests: 1, bytes: 1000) == 250_000 + 1000 + 625)
        #expect(phone.cost(requests: 8, bytes: 1000) == 2 * 250_000 + 1000 + 8 * 625)
        #expect(phone.cost(requests: 17, bytes: 0) == 4 * 250_000 + 17 * 625)
        #expect(phone.cost(requests: 0, bytes: 5) == 5)
        // The fixed model (`--request-cost`) prices rounds alone.
        #expect(CostModel(requestOverhead: 100).requestHandling == 0)
        #expect(CostModel(requestOverhead: 100).cost(requests: 3, bytes: 0) == 300)
        #expect(CostModel(requestOverhead: .max).cost(requests: 2, bytes: 1) == .max)
        #expect(CostModel(roundTripSeconds: .infinity, bytesPerSecond: 1, concurrency: 0).requestOverhead == 0)
        #expect(CostModel(roundTripSeconds: .infinity, bytesPerSecond: 1, concurrency: 0).concurrency == 1)
        // Hundreds of large objects keep the link busy while each waits for its answer:
        // they cost their bytes, a round trip and the handshakes, not 38 rounds.
        #expect(phone.cost(requests: 300, bytes: 28_000_000) == 250_000 + 28_000_000 + 250_000 + 300 * 625)
        // Small ones wait for their rounds, with one connection's share of the bytes.
        #expect(phone.cost(requests: 64, bytes: 80_000) == 250_000 + 8 * 250_000 + 10_000 + 64 * 625)
        // One at a time, every round is waited for, as before.
        #expect(
            CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 1).cost(requests: 3, bytes: 5) == 750_005 + 3 * 625)
    }

    /// Where the missing objects are the archive's front, its one request beats rounds of
    /// object requests on a phone's link, on a LAN and on a link with no round trip at all,
    /// where each request's handling still costs; only free requests favour the objects,
    /// and a lone object is fetched alone.
    @Test func thePlanFollowsTheLink() {
        let many = (0..<40).map { Self.object($0, size: 20_000) }
        func plan(_ model: CostModel) -> FetchPlan {
            FetchPlan.make(
                missing: Array(many[0..<20]), archiveObjects: many, fileCount: 40, archivePath: "archives/B-2.tar", model: model)
        }
        #expect(plan(CostModel(roundTripSeconds: 0.3, bytesPerSecond: 625_000, concurrency: 8)).strategy == .lmfo)
        #expect(plan(CostModel(roundTripSeconds: 0.0002, bytesPerSecond: 100_000_000, concurrency: 8)).strategy == .lmfo)
        #expect(plan(CostModel(roundTripSeconds: 0, bytesPerSecond: 100_000_000, concurrency: 8)).strategy == .lmfo)
        #expect(plan(CostModel(requestOverhead: 0, concurrency: 8)).strategy == .objects)
        let one = FetchPlan.make(
            missing: [many[0]], archiveObjects: many, fileCount: 40, archivePath: "archives/B-2.tar",
            model: CostModel(roundTripSeconds: 0.3, bytesPerSecond: 625_000, concurrency: 1))
        #expect(one.strategy == .objects)
    }

    /// A first sync on a fast link (0.1 ms, 400 Mbit/s, as loopback measured): 20,000
    /// small objects one request each cost 20,000 requests' handling, about 5 s of both
    /// ends' processors, where the archive costs a fifth more bytes, a quarter of a second
    /// of that link. So the archive is taken, as on a phone; a lone object is still
    /// fetched alone.
    @Test func aFirstSyncOnAFastLinkTakesTheArchive() {
        let objects = (0..<20_000).map { n in
            let hex = String(n, radix: 16)
            return StoredObject(sha: String(repeating: "0", count: 40 - hex.count) + hex, formats: [.raw: 3_000])
        }
        let fast = CostModel(roundTripSeconds: 0.0001, bytesPerSecond: 50_000_000, concurrency: 8)
        let phone = CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 8)
        for model in [fast, phone] {
            let first = FetchPlan.make(
                missing: objects, archiveObjects: objects, fileCount: objects.count, archivePath: "archives/B-1.tar", model: model,
                memberOrder: .unknown)  // a repo without a version reads no record
            #expect(first.strategy == .archive, "\(first.estimates)")
        }
        let update = FetchPlan.make(
            missing: [objects[7]], archiveObjects: objects, fileCount: objects.count, archivePath: "archives/B-2.tar", model: fast)
        #expect(update.strategy == .objects, "\(update.estimates)")
    }

    /// The issue's history in small: version 1, version 2 changing a few files, version 3
    /// changing others of version 1 (so version 2's changes are undone), on a phone's link.
    /// A repo at version 1 lacks version 3's new objects; the files version 2 changed come
    /// back in version 3 and sit in front of them in the archive. The record says so: the
    /// exact prefix moves more than the objects do, and the planner takes the objects.
    @Test func aRecordPricesThePrefixTheRepoNeeds() throws {
        let history = try History()
        let phone = CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 8)
        let (missing, target) = try history.update(to: 3)
        let assumed = history.plan(missing, target, 3, phone, .assumed)
        let recorded = history.plan(missing, target, 3, phone, try history.order(3))
        // The 8 new objects of 200 KB, behind the 4 the repo has: 12 members.
        #expect(assumed.prefixLength == 8 * (512 + 200_192) && assumed.strategy == .lmfo)
        #expect(recorded.prefixLength == 12 * (512 + 200_192))
        #expect(recorded.transfers[.lmfo] == FetchPlan.Transfer(requests: 1, bytes: 12 * 200_704))
        let objects: Int64 = 250_000 + 250_000 + 1_600_000 + 8 * 625  // the handshakes' round, one round, the bytes, the handling
        #expect(recorded.estimates[.objects] == objects)
        #expect(recorded.strategy == .objects, "\(recorded.estimates)")
        // Forced, the prefix still reaches every missing object: one request brings them all.
        #expect(history.plan(missing, target, 3, phone, try history.order(3), forced: .lmfo).prefixLength == 12 * 200_704)
        // Without a record the same choice, by the margin: an eighth more bytes, a round more.
        let unknown = history.plan(missing, target, 3, phone, .unknown)
        #expect(unknown.prefixLength == assumed.prefixLength && unknown.memberOrder == .unknown)
        let guessed: Int64 = 2 * 250_000 + 1_806_336 + 2 * 625  // 8 members of 200,704 bytes, and an eighth
        #expect(unknown.estimates[.lmfo] == guessed)
        #expect(unknown.strategy == .objects)
    }

    /// The update to version 2 from version 1: its new objects lead its archive, which
    /// the record shows, so one range of exactly their bytes beats rounds of requests.
    @Test func aRecordShowingTheMissingObjectsInFrontChoosesThePrefix() throws {
        let history = try History()
        let phone = CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 8)
        let (missing, target) = try history.update(to: 2)
        let plan = history.plan(missing, target, 2, phone, try history.order(2))
        #expect(plan.memberOrder == (try history.order(2)))
        #expect(plan.prefixLength == 4 * 200_704 && plan.strategy == .lmfo, "\(plan.estimates)")
    }

    /// A record that does not list exactly the archive's members (another version's, one
    /// missing an object, one with an extra) is no order: the plan prices as without one.
    @Test func aRecordNotListingTheMembersIsIgnored() throws {
        let history = try History()
        let phone = CostModel(roundTripSeconds: 0.1, bytesPerSecond: 2_500_000, concurrency: 8)
        let (missing, target) = try history.update(to: 3)
        guard case .recorded(let intros) = try history.order(3), case .recorded(let other) = try history.order(2) else {
            Issue.record("no record")
            return
        }
        var short = intros
        short.removeValue(forKey: missing[0].digest)
        var long = intros
        long[SHA1.Digest(hex: String(repeating: "0", count: 40))!] = 3
        for order in [other, short, long] {
            let plan = history.plan(missing, target, 3, phone, .recorded(order))
            #expect(plan.memberOrder == .unknown && plan.prefixLength == 8 * 200_704 && plan.strategy == .objects)
        }
    }

    /// Versions 1 to 3 of a bundle of 40 files of 200 KB of noise (stored as they are), in
    /// a catalog in memory, with the LMFO records its imports write.
    struct History {
        let catalog: Catalog
        let storage = MemoryStorage()

        init() throws {
            let dir = try TemporaryDirectory()
            catalog = try Catalog.create(id: "com.example.plan", in: storage)
            func write(_ changed: Range<Int>, seed: UInt64) throws {
                for i in 0..<40 {
                    try dir.write("src/f\(i).bin", SampleContent.noise(200_000, seed: changed.contains(i) ? seed + UInt64(i) : UInt64(i)))
                }
                _ = try catalog.updateBundle("B", from: dir.at("src"))
            }
            try write(0..<0, seed: 0)
            try write(0..<4, seed: 1000)
            try write(4..<12, seed: 2000)
        }

        /// The objects a repo at version 1 lacks for `version`, and all of `version`'s.
        func update(to version: Int) throws -> ([StoredObject], [StoredObject]) {
            let held = try catalog.manifest(bundle: "B", version: 1).objects(flavor: nil)
            let target = Array(try catalog.manifest(bundle: "B", version: version).objects(flavor: nil).values)
            return (target.filter { held[$0.sha] == nil }, target)
        }

        /// The member order the version's LMFO record gives.
        func order(_ version: Int) throws -> FetchPlan.MemberOrder {
            let path = VersionFiles(bundle: "B", version: version).lmfoRecord
            let record = try LMFORecord.parse(try #require(try storage.read(path)), path: path, version: version)
            return .recorded(try #require(record.scopes[""]))
        }

        func plan(
            _ missing: [StoredObject], _ target: [StoredObject], _ version: Int, _ model: CostModel, _ order: FetchPlan.MemberOrder,
            forced: FetchStrategy? = nil
        ) -> FetchPlan {
            FetchPlan.make(
                missing: missing, archiveObjects: target, fileCount: target.count, archivePath: "archives/B-\(version).tar",
                model: model, forced: forced, memberOrder: order)
        }
    }
}
