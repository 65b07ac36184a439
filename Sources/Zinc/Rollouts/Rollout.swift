/// A staged rollout of one bundle's distribution: the content of `rollouts/B~D.rollout`
/// (FORMAT.md, "Rollouts"). The distribution's pointer stays on `control`, which every
/// install outside the rollout (and every client that does not know rollouts) follows;
/// the installs that `RolloutSelection` puts in it follow `candidate`.
public struct Rollout: Equatable, Sendable {
    public enum State: String, CaseIterable, Sendable {
        /// The steps run: installs take the candidate as its percentage grows.
        case active
        /// The steps stopped at `pausedAt`: nobody moves.
        case paused
        /// Every install follows the control.
        case halted
        /// The pointer names the candidate; the file has no effect any more.
        case complete
    }

    /// What the change that wrote this serial did.
    public enum Action: String, CaseIterable, Sendable {
        case start, set, pause, resume, halt, complete, renew
    }

    /// From `time` (seconds since 1970) on, `percentage` of the installs take the candidate.
    public struct Step: Equatable, Sendable {
        public var time: Int64
        public var percentage: Percentage

        public init(time: Int64, percentage: Percentage) {
            self.time = time
            self.percentage = percentage
        }
    }

    public var catalog: String
    public var bundle: String
    public var distro: String
    /// Grows with every change of the file (1 to 2^53).
    public var serial: Int64
    /// When the change was made, and until when a client that trusts keys accepts the
    /// file: seconds since 1970, UTC.
    public var signedAt: Int64
    public var expiresAt: Int64
    public var state: State
    public var control: Int
    public var candidate: Int
    /// 16 random bytes, new for every rollout: which installs are in it.
    public var salt: [UInt8]
    /// At least one, times ascending, percentages never falling.
    public var steps: [Step]
    /// Where the steps stopped: set exactly when `state` is `paused`.
    public var pausedAt: Int64?
    public var conditions: RolloutConditions
    public var action: Action
    public var actor: String
    public var note: String?
    /// The key that signed the file (16 hex digits), nil when it is unsigned; set by parsing.
    public var keyID: String?

    public init(
        catalog: String, bundle: String, distro: String, serial: Int64, signedAt: Int64, expiresAt: Int64,
        state: State, control: Int, candidate: Int, salt: [UInt8], steps: [Step], pausedAt: Int64? = nil,
        conditions: RolloutConditions = RolloutConditions(), action: Action, actor: String, note: String? = nil
    ) {
        self.catalog = catalog
        self.bundle = bundle
        self.distro = distro
        self.serial = serial
        self.signedAt = signedAt
        self.expiresAt = expiresAt
        self.state = state
        self.control = control
        self.candidate = candidate
        self.salt = salt
        self.steps = steps
        self.pausedAt = pausedAt
        self.conditions = conditions
        self.action = action
        self.actor = actor
        self.note = note
    }

    /// The percentage of the installs in the rollout at `now` (seconds since 1970): the
    /// last step whose time has come, evaluated at `pausedAt` while paused; 0 before the
    /// first step.
    public func percentage(at now: Int64) -> Percentage {
        let clock = pausedAt ?? now
        return steps.last { $0.time <= clock }?.percentage ?? .zero
    }

    /// The share of the installs that follow the candidate at `now`: `percentage(at:)`,
    /// none while halted.
    public func share(at now: Int64) -> Percentage {
        state == .halted ? .zero : percentage(at: now)
    }

    /// The steps whose time has not come at `now` (at `pausedAt` while paused): where the
    /// share goes next.
    public func stepsToCome(at now: Int64) -> [Step] {
        let clock = pausedAt ?? now
        return steps.filter { $0.time > clock }
    }

    /// `version 2 over 1 (active, 10.00%)`: the rollout in a line, as `zinc list` and
    /// `zinc diff` print it.
    public func summary(at now: Int64) -> String {
        "version \(candidate) over \(control) (\(state == .halted ? "halted" : "\(state), \(percentage(at: now))%"))"
    }

    /// Whether installs may follow the candidate while the index's pointer names
    /// `pointer`: the rollout applies only while its control is still the pointer and it
    /// has not completed.
    public func applies(whilePointerIs pointer: Int?) -> Bool {
        state != .complete && pointer == control
    }

    /// Whether it has expired at `now` (seconds since 1970).
    public func isExpired(at now: Int64) -> Bool { expiresAt <= now }
}
