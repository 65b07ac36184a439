import Synchronization
import Testing
import Zinc
import ZincTestSupport

/// A rollout as a release engineer drives it, on a local catalog: every change written by
/// compare-and-swap and logged, the pointer left on the control until `complete`, the
/// candidate's archives and signatures in place before the file names it, and the
/// commands that would pull a live rollout's versions from under its installs refused.
@Suite struct RolloutUpdateTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    /// Seconds since 1970 the tests' clock reads; each change moves it on.
    let clock = Clock()

    final class Clock: Sendable {
        private let seconds = Mutex<Int64>(1_800_000_000)
        var now: Int64 { seconds.withLock { $0 } }
        func advance(_ delta: Int64) { seconds.withLock { $0 += delta } }
    }

    /// Bundle B at versions 1, 2 and 3; master points at 1.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try SampleContent.catalogGrowingByAFile(in: dir, versions: 3)
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(1)).run()
    }

    @discardableResult
    func change(_ change: RolloutUpdate.Change, on catalog: Catalog? = nil, note: String? = nil) throws -> Rollout {
        let clock = clock
        clock.advance(60)
        return try RolloutUpdate(
            catalog ?? self.catalog, bundle: "B", distro: "master", change: change, actor: "alice", note: note,
            clock: { clock.now * 1000 }
        ).run()
    }

    func start(_ version: Int = 2, percent: Int = 10) throws -> Rollout {
        try change(
            .start(
                candidate: .number(version), schedule: .percentage(Percentage(basisPoints: percent * 100)!), conditions: RolloutConditions()
            ))
    }

    func master() throws -> [String: Int] { try catalog.index().bundles["B"]!.distributions }

    @Test func startLeavesThePointerAndMakesTheCandidateReadyFirst() throws {
        #expect(dir.files(under: "cat/archives") == ["B-1.tar"])
        let rollout = try start(note: "first wave")
        #expect(rollout.control == 1 && rollout.candidate == 2 && rollout.state == .active)
        #expect(rollout.steps == [Rollout.Step(time: clock.now, percentage: Percentage(basisPoints: 1_000)!)])
        #expect(rollout.serial == clock.now * 1000 && rollout.expiresAt == clock.now + RolloutFile.defaultLifetime)
        #expect(try master() == ["master": 1], "old clients keep following the control")
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-2.tar"], "the candidate's archive is written before the file")
        #expect(try RolloutUpdate.current(in: catalog, bundle: "B", distro: "master") == rollout)
        #expect(try RolloutUpdate.log(in: catalog, bundle: "B", distro: "master") == [rollout])
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }

    func start(note: String) throws -> Rollout {
        try change(
            .start(candidate: .number(2), schedule: .percentage(Percentage(basisPoints: 1_000)!), conditions: RolloutConditions()),
            note: note)
    }

    @Test func goesThroughEveryStateAndLogsEachChange() throws {
        let started = try change(
            .start(
                candidate: .latest, schedule: .steps([1, 5, 20].map { Percentage(basisPoints: $0 * 100)! }, every: 3_600),
                conditions: RolloutConditions()))
        #expect(started.candidate == 3 && started.steps.map(\.time) == [clock.now, clock.now + 3_600, clock.now + 7_200])
        let paused = try change(.pause)
        #expect(paused.state == .paused && paused.pausedAt == clock.now && paused.salt == started.salt)
        clock.advance(1_000)
        let resumed = try change(.resume)
        // The steps to come move on by the 1,060 seconds spent paused; the first had come.
        #expect(resumed.steps.map(\.time) == [started.steps[0].time, started.steps[1].time + 1_060, started.steps[2].time + 1_060])
        let fixed = try change(.setCandidate(.number(2)))
        #expect(fixed.candidate == 2 && fixed.salt == started.salt && fixed.steps == resumed.steps, "a fix keeps who is drawn")
        let raised = try change(.setPercentage(Percentage(basisPoints: 5_000)!))
        #expect(raised.steps == [Rollout.Step(time: clock.now, percentage: Percentage(basisPoints: 5_000)!)] && raised.salt == started.salt)
        #expect(try change(.halt).state == .halted)
        #expect(try master() == ["master": 1])
        let completed = try change(.complete)
        #expect(completed.state == .complete)
        #expect(try master() == ["master": 2, "_master": 1], "the pointer moves to the candidate, the control kept for a rollback")
        #expect(try change(.complete) == completed, "completing again changes nothing")
        let log = try RolloutUpdate.log(in: catalog, bundle: "B", distro: "master")
        #expect(log.map(\.action) == [.start, .pause, .resume, .set, .set, .halt, .complete])
        #expect(log.map(\.serial) == log.map(\.serial).sorted() && Set(log.map(\.serial)).count == log.count)
        #expect(log.allSatisfy { $0.actor == "alice" })
    }

    @Test func refusesWhatTheStateDoesNotAllow() throws {
        func conflict(_ reason: String) -> ZincError { .rolloutConflict(bundle: "B", distro: "master", reason: reason) }
        #expect(throws: conflict("there is no rollout; start one with `zinc rollout start`")) { try change(.pause) }
        #expect(throws: conflict("version 1 is what 'master' points at already")) { try start(1) }
        _ = try start()
        #expect(throws: conflict("version 2 is active (10.00%); set, halt or complete it before starting another")) { try start(3) }
        #expect(throws: conflict("it is active already")) { try change(.resume) }
        #expect(throws: conflict("version 1 is the rollout's control; halt the rollout to send every install back to it")) {
            try change(.setCandidate(.number(1)))
        }
        try change(.halt)
        #expect(throws: conflict("it is halted already")) { try change(.halt) }
        #expect(throws: conflict("it is halted, not active: nothing to pause")) { try change(.pause) }
        // A halted rollout may give way to a new one, with a new salt.
        let second = try start(3)
        #expect(second.candidate == 3)
    }

    /// A start run again (its first run killed once the file was written, say) finds its
    /// rollout made and changes nothing; a start that differs, or one after a change, is
    /// refused while the rollout is live.
    @Test func aStartRunAgainChangesNothing() throws {
        func conflict(_ reason: String) -> ZincError { .rolloutConflict(bundle: "B", distro: "master", reason: reason) }
        let first = try start()
        #expect(try start() == first)
        #expect(try RolloutUpdate.log(in: catalog, bundle: "B", distro: "master") == [first])
        let refusal = conflict("version 2 is active (10.00%); set, halt or complete it before starting another")
        #expect(throws: refusal) { try start(percent: 20) }
        try change(.setPercentage(Percentage(basisPoints: 1_000)!))
        #expect(throws: refusal) { try start() }
    }

    @Test func aLiveRolloutKeepsItsDistributionAndVersionsUnlessForced() throws {
        _ = try start()
        let refusal = ZincError.rolloutConflict(
            bundle: "B", distro: "master",
            reason: "a rollout of version 2 is active; complete or halt it (`zinc rollout complete` or `halt`), "
                + "or pass --force to move the pointer anyway, which ends the rollout")
        #expect(throws: refusal) { try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(3)).run() }
        #expect(throws: refusal) { try DistroDeletion(catalog, bundle: "B", distro: "master").run() }
        #expect(throws: ZincError.versionsReferenced(bundle: "B", distributions: [2: ["master (its rollout's candidate)"]])) {
            try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(2))]).run()
        }
        #expect(try VersionDeletion(catalog, bundle: "B", versions: [.unreferenced]).run().versions == [3])
        // Another distribution moves freely.
        try DistroUpdate(catalog, bundle: "B", distro: "test", to: .number(2)).run()

        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2), force: true).run()
        #expect(
            throws: ZincError.rolloutConflict(
                bundle: "B", distro: "master",
                reason: "'master' points at version 2, no longer at the rollout's control (version 1): the rollout is over; start a new one"
            )
        ) { try change(.halt) }
    }

    @Test func cleanKeepsTheCandidatesArchivesUntilTheRolloutDropsIt() throws {
        _ = try start()
        _ = try CatalogClean(catalog, grace: .zero).run()
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-2.tar"])
        try change(.setCandidate(.number(3)))
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-2.tar", "B-3.tar"])
        _ = try CatalogClean(catalog, grace: .zero).run()
        #expect(dir.files(under: "cat/archives") == ["B-1.tar", "B-3.tar"], "the replaced candidate's archive left use")
        #expect(try CatalogVerification(catalog).run().problems.isEmpty)
    }

    @Test func completeFinishesAfterAKillBetweenThePointerAndTheFile() throws {
        _ = try start()
        // What a kill after the pointer's move leaves: the candidate is the pointer, the
        // file still active (and no longer applying, so no install moves on it).
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2), force: true).run()
        #expect(try change(.complete).state == .complete)
        #expect(try master() == ["master": 2, "_master": 1])
    }

    @Test func aSignedCatalogSignsItsRolloutsAndRenewsThem() throws {
        let key = try SigningKey.generate()
        let signer = CatalogSigner(key: key)
        let signed = try Catalog.open(FileStorage(root: dir.at("cat")), signer: signer)
        _ = try CatalogSigning(signed, signer: signer).run()
        let started = try change(
            .start(candidate: .number(3), schedule: .percentage(Percentage(basisPoints: 500)!), conditions: RolloutConditions()), on: signed
        )
        #expect(started.keyID == key.publicKey.id)
        let bytes = try dir.read("cat/" + RolloutFile.path(bundle: "B", distro: "master"))
        #expect(try RolloutFile.verified(bytes, path: "r", trusted: [key.publicKey]).candidate == 3)
        #expect(dir.exists("cat/signatures/versions/B-3.\(key.publicKey.id).sig"), "the candidate is signed before the file names it")
        #expect(try CatalogVerification(signed, trustedKeys: [key.publicKey]).run().problems.isEmpty)

        // Unsigned, the change is refused: it would leave the rollout unsigned.
        #expect(throws: ZincError.signedCatalogNeedsSigner(dir.at("cat"))) { try change(.pause) }

        let report = try CatalogSigning(signed, signer: signer, actor: "release-bot").run()
        #expect(report.rolloutsRenewed == 1)
        let renewed = try #require(try RolloutUpdate.current(in: catalog, bundle: "B", distro: "master"))
        #expect(renewed.action == .renew && renewed.actor == "release-bot" && renewed.serial > started.serial)
    }

    @Test func verifyReportsARolloutNamingAVersionTheIndexDoesNotList() throws {
        var rollout = try start()
        rollout.candidate = 9
        try dir.write("cat/" + RolloutFile.path(bundle: "B", distro: "master"), RolloutFile.encode(rollout, signedBy: nil))
        #expect(
            try CatalogVerification(catalog).run().problems.map(\.description)
                == ["rollouts/B~master.rollout: names version 9 of 'B', which the index does not list"])
    }
}
