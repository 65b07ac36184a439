/// One change to the rollout of a bundle's distribution (`zinc rollout start`, `set`,
/// `pause`, `resume`, `halt`, `complete`, and the renewal `zinc sign` makes).
///
/// The rollout file changes by compare-and-swap: ``run()`` reads it and the index,
/// decides the new state from them, and writes it only if no other writer changed the
/// file meanwhile, otherwise reads again. A candidate is made ready first, before any
/// file names it: its archives where the catalog keeps archives only for versions in use,
/// and its signatures in a signed catalog. `complete` moves the pointer in the index
/// first (keeping the control as `_D`), then marks the file complete, so a kill between
/// the two leaves the candidate as the pointer and a rollout that no longer applies, and
/// a re-run finishes it. A re-run of a `start` killed after the file was written finds
/// that start made and changes nothing.
public struct RolloutUpdate: Sendable {
    /// How the percentage grows.
    public enum Schedule: Equatable, Sendable {
        /// This share from now on.
        case percentage(Percentage)
        /// These shares, the first now and each next one `every` seconds after the last.
        case steps([Percentage], every: Int64)
    }

    public enum Change: Equatable, Sendable {
        /// A new rollout of the version `candidate` names, from the version the pointer
        /// names now, with a new salt.
        case start(candidate: VersionSpec, schedule: Schedule, conditions: RolloutConditions)
        /// The share from now on (the steps still to come are dropped); the salt stays.
        case setPercentage(Percentage)
        /// Another candidate (a fix), keeping the salt and the steps, so no install is
        /// drawn anew.
        case setCandidate(VersionSpec)
        case pause, resume, halt, complete
        /// The same state with a new serial and expiry (`zinc sign`).
        case renew
    }

    private let catalog: Catalog
    private let bundle: String
    private let distro: String
    private let change: Change
    private let actor: String
    private let note: String?
    private let clock: @Sendable () -> Int64

    /// `actor` (who makes the change) and `note` (why) go into the file and its log;
    /// `clock` gives the time in milliseconds since 1970 (the system's by default).
    public init(
        _ catalog: Catalog, bundle: String, distro: String, change: Change, actor: String, note: String? = nil,
        clock: (@Sendable () -> Int64)? = nil
    ) {
        self.catalog = catalog
        self.bundle = bundle
        self.distro = distro
        self.change = change
        self.actor = actor
        self.note = note
        self.clock = clock ?? { WallClock.nowMilliseconds() }
    }

    /// The rollout as stored now, nil when the distribution has none: what `zinc rollout
    /// status` shows.
    public static func current(in catalog: Catalog, bundle: String, distro: String) throws -> Rollout? {
        try RolloutStore(catalog: catalog, bundle: bundle, distro: distro).current(catalogID: catalog.index().id)?.rollout
    }

    /// The rollouts of the catalog that apply now (not complete, their control still the
    /// pointer), by bundle and distribution: what `zinc list` shows.
    public static func live(in catalog: Catalog) throws -> [Rollout] {
        try catalog.liveRollouts(in: catalog.index()).sorted { ($0.bundle, $0.distro) < ($1.bundle, $1.distro) }
    }

    /// Every state the rollout file has had, oldest first: `zinc rollout log`.
    public static func log(in catalog: Catalog, bundle: String, distro: String) throws -> [Rollout] {
        try RolloutStore(catalog: catalog, bundle: bundle, distro: distro).log()
    }

    /// Makes the change and returns the rollout as written.
    @discardableResult
    public func run() throws -> Rollout {
        try Names.validateBundleName(bundle)
        try Names.validateDistroName(distro)
        try Attribute.validateValue(actor, kind: "actor", maxBytes: RolloutFile.maxActorBytes)
        if let note { try Attribute.validateValue(note, kind: "note", maxBytes: RolloutFile.maxNoteBytes) }
        if change == .complete { try movePointerToCandidate() }
        return try catalog.storage.withImportLock(exclusive: false) { lock in
            var ready = Set<Int>()
            for _ in 0..<Catalog.indexAttempts {
                let index = try catalog.index()
                let entry = try index.bundle(bundle)
                let store = RolloutStore(catalog: catalog, bundle: bundle, distro: distro)
                let stored = try store.current(catalogID: index.id)
                let next = try changed(stored?.rollout, entry: entry, catalogID: index.id)
                // Nothing to change: a re-run of a change already made (a `complete`, or a
                // `start` killed once the file was written) finishes with the file as it is.
                if let stored, next == stored.rollout { return stored.rollout }
                guard RolloutFile.serialRange.contains(next.serial), next.steps.allSatisfy({ IndexSignature.timeRange.contains($0.time) })
                else {
                    throw conflict("its serial or a step's time would leave the range the format allows")
                }
                try CommitSigning(catalog: catalog).checkUnsignedChangeAllowed()
                if !ready.contains(next.candidate) {
                    try prepare(candidate: next.candidate, versions: entry.versions)
                    ready.insert(next.candidate)
                }
                // A candidate replaced, or a rollout ended, leaves its archives out of use
                // unless a pointer names its version: recorded before the swap and after
                // it, as a pointer's move records them.
                let leaving = Self.versions(of: stored?.rollout).subtracting(Self.versions(of: next)).subtracting(index.pointedVersions)
                try catalog.retireArchives(of: leaving)
                try lock.confirm()
                guard try store.commit(next, replacing: stored) else { continue }
                try catalog.retireArchives(of: leaving)
                return next
            }
            throw ZincError.indexKeptChanging(location: catalog.storage.location, attempts: Catalog.indexAttempts)
        }
    }

    /// The versions whose archives a rollout keeps in use.
    private static func versions(of rollout: Rollout?) -> Set<BundleVersion> {
        guard let rollout, rollout.state != .complete else { return [] }
        return [BundleVersion(bundle: rollout.bundle, version: rollout.candidate)]
    }

    private func conflict(_ reason: String) -> ZincError {
        .rolloutConflict(bundle: bundle, distro: distro, reason: reason)
    }

    /// The rollout `change` makes of `old`, the file as read; throws when its state does
    /// not allow the change.
    private func changed(_ old: Rollout?, entry: CatalogIndex.BundleEntry, catalogID: String) throws -> Rollout {
        guard let pointer = entry.distributions[distro] else {
            throw ZincError.distroNotFound(bundle: bundle, distro: distro, suggestion: nil)
        }
        let nowMilliseconds = clock()
        let now = nowMilliseconds / 1000
        let lifetime = catalog.signer.map { $0.validity.components.seconds } ?? RolloutFile.defaultLifetime
        func stamped(_ rollout: Rollout, _ action: Rollout.Action) -> Rollout {
            var next = rollout
            next.serial = max((old?.serial ?? 0) + 1, nowMilliseconds)
            next.signedAt = now
            next.expiresAt = now + lifetime
            next.action = action
            next.actor = actor
            next.note = note
            next.keyID = catalog.signer?.key.publicKey.id
            return next
        }
        if case .start(let spec, let schedule, let conditions) = change {
            let candidate = try spec.resolve(in: entry, name: bundle)
            if let old, old.applies(whilePointerIs: pointer), old.state == .active || old.state == .paused {
                if try Self.isStarted(old, candidate: candidate, schedule: schedule, conditions: conditions) { return old }
                throw conflict(
                    "version \(old.candidate) is \(old.state) (\(old.percentage(at: now))%); set, halt or complete it before starting another"
                )
            }
            guard candidate != pointer else { throw conflict("version \(candidate) is what '\(distro)' points at already") }
            let rollout = Rollout(
                catalog: catalogID, bundle: bundle, distro: distro, serial: 1, signedAt: now, expiresAt: now, state: .active,
                control: pointer, candidate: candidate, salt: Self.newSalt(), steps: try Self.steps(schedule, from: now),
                conditions: conditions, action: .start, actor: actor)
            return stamped(rollout, .start)
        }
        guard var rollout = old else { throw conflict("there is no rollout; start one with `zinc rollout start`") }
        guard rollout.state != .complete || change == .complete else {
            throw conflict("the rollout of version \(rollout.candidate) is complete; start a new one")
        }
        guard rollout.applies(whilePointerIs: pointer) || change == .complete else {
            throw conflict(
                "'\(distro)' points at version \(pointer), no longer at the rollout's control (version \(rollout.control)): "
                    + "the rollout is over; start a new one")
        }
        switch change {
        case .start: preconditionFailure("handled above")
        case .setPercentage(let percentage):
            rollout.steps = [Rollout.Step(time: rollout.pausedAt ?? now, percentage: percentage)]
            return stamped(rollout, .set)
        case .setCandidate(let spec):
            let candidate = try spec.resolve(in: entry, name: bundle)
            guard candidate != rollout.control else {
                throw conflict("version \(candidate) is the rollout's control; halt the rollout to send every install back to it")
            }
            rollout.candidate = candidate
            return stamped(rollout, .set)
        case .pause:
            guard rollout.state == .active else { throw conflict("it is \(rollout.state), not active: nothing to pause") }
            rollout.state = .paused
            rollout.pausedAt = now
            return stamped(rollout, .pause)
        case .resume:
            guard rollout.state != .active else { throw conflict("it is active already") }
            // The steps still to come move on by the time spent paused.
            if let pausedAt = rollout.pausedAt {
                let delay = max(0, now - pausedAt)
                rollout.steps = rollout.steps.map {
                    $0.time > pausedAt ? Rollout.Step(time: $0.time + delay, percentage: $0.percentage) : $0
                }
            }
            rollout.state = .active
            rollout.pausedAt = nil
            return stamped(rollout, .resume)
        case .halt:
            guard rollout.state != .halted else { throw conflict("it is halted already") }
            rollout.state = .halted
            rollout.pausedAt = nil
            return stamped(rollout, .halt)
        case .complete:
            if rollout.state == .complete { return rollout }
            rollout.state = .complete
            rollout.pausedAt = nil
            return stamped(rollout, .complete)
        case .renew:
            return stamped(rollout, .renew)
        }
    }

    /// Whether `rollout` is the one this start makes, written by an earlier run of it and
    /// unchanged since: the same candidate, conditions and schedule (its salt and times
    /// are that run's).
    private static func isStarted(
        _ rollout: Rollout, candidate: Int, schedule: Schedule, conditions: RolloutConditions
    ) throws -> Bool {
        guard rollout.action == .start, rollout.state == .active, rollout.candidate == candidate,
            rollout.conditions == conditions, let first = rollout.steps.first
        else { return false }
        return try steps(schedule, from: first.time) == rollout.steps
    }

    /// The steps of `schedule` starting at `now`; throws for one a file cannot hold.
    static func steps(_ schedule: Schedule, from now: Int64) throws -> [Rollout.Step] {
        switch schedule {
        case .percentage(let percentage):
            return [Rollout.Step(time: now, percentage: percentage)]
        case .steps(let percentages, let every):
            guard (1...RolloutFile.maxSteps).contains(percentages.count) else {
                throw ZincError.invalidName(
                    kind: "steps", value: percentages.map(\.description).joined(separator: ","),
                    reason: "a rollout has 1 to \(RolloutFile.maxSteps) steps")
            }
            guard zip(percentages, percentages.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw ZincError.invalidName(
                    kind: "steps", value: percentages.map(\.description).joined(separator: ","),
                    reason: "each step must be larger than the one before")
            }
            let span = every.multipliedReportingOverflow(by: Int64(percentages.count))
            guard every > 0, !span.overflow,
                now.addingReportingOverflow(span.partialValue).partialValue <= IndexSignature.timeRange.upperBound
            else {
                throw ZincError.invalidName(kind: "step interval", value: "\(every)", reason: "it must be a positive number of seconds")
            }
            return percentages.enumerated().map { Rollout.Step(time: now + Int64($0.offset) * every, percentage: $0.element) }
        }
    }

    private static func newSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Makes `candidate` ready for installs before a rollout file names it: its archives,
    /// and in a signed catalog the signatures of its manifest.
    private func prepare(candidate: Int, versions: [Int]) throws {
        let wrote = try catalog.writeMissingArchives(bundle: bundle, version: candidate)
        if let signer = catalog.signer {
            let writer = SignatureWriter(catalog: catalog, signer: signer)
            var known = try writer.earlierContentDigests(bundle: bundle, below: candidate, versions: versions)
            if try writer.signManifest(bundle: bundle, version: candidate, known: &known) || !wrote.isEmpty {
                try catalog.storage.flush()
            }
        } else if !wrote.isEmpty {
            try catalog.storage.flush()
        }
    }

    /// `complete`'s first half: the pointer moves from the control to the candidate, and
    /// `_D` keeps the control. Nothing to do when a run stopped after it.
    private func movePointerToCandidate() throws {
        let store = RolloutStore(catalog: catalog, bundle: bundle, distro: distro)
        guard let rollout = try store.current(catalogID: try catalog.index().id) else {
            throw conflict("there is no rollout to complete")
        }
        let (control, candidate) = (rollout.rollout.control, rollout.rollout.candidate)
        guard rollout.rollout.state != .complete else { return }
        try catalog.movePointers { index in
            var entry = try index.bundle(bundle)
            switch entry.distributions[distro] {
            case candidate: return
            case control:
                entry.distributions[distro] = candidate
                entry.distributions["_" + distro] = control
                index.bundles[bundle] = entry
            case let pointer:
                throw conflict(
                    "'\(distro)' points at \(pointer.map { "version \($0)" } ?? "nothing"), no longer at the rollout's control "
                        + "(version \(control)); nothing was moved")
            }
        }
    }
}
