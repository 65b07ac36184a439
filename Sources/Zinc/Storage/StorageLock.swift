/// A lock this process holds, as `withImportLock` hands it to its body.
public protocol HeldLock: Sendable {
    /// Throws unless the lock has certainly been held without a break since it was
    /// taken. A lock object that went unrefreshed long enough for another writer to take
    /// it as stale (a stalled or suspended process) may have let `clean` run meanwhile,
    /// so an import confirms its lock right before committing and gives up otherwise.
    func confirm() throws
}

/// A lock that cannot be lost while the process lives (`flock`, an in-process lock).
public struct ProcessLifetimeLock: HeldLock {
    public init() {}
    public func confirm() throws {}
}

/// How lock objects (see `LockObjects`) expire and are refreshed.
public struct LockPolicy: Sendable, Equatable {
    /// A lock object whose holder has not refreshed it for this long is stale: its
    /// holder is taken to be gone (killed, or its machine lost), and it is ignored.
    public var staleAfter: Duration
    /// How often a holder rewrites its lock object with the current time.
    public var refreshEvery: Duration
    /// How long a writer waiting for a conflicting lock pauses between looks.
    public var retryEvery: Duration
    /// How long a writer waits for conflicting locks before giving up.
    public var waitAtMost: Duration

    public init(staleAfter: Duration, refreshEvery: Duration, retryEvery: Duration, waitAtMost: Duration) {
        precondition(refreshEvery * 2 < staleAfter, "a lock must be refreshed at least twice before it goes stale")
        self.staleAfter = staleAfter
        self.refreshEvery = refreshEvery
        self.retryEvery = retryEvery
        self.waitAtMost = waitAtMost
    }

    /// restic's figures: stale after 30 minutes without a refresh, refreshed every 5.
    /// Clocks of the machines writing one catalog must agree to well within that.
    public static let standard = LockPolicy(
        staleAfter: .seconds(30 * 60), refreshEvery: .seconds(5 * 60),
        retryEvery: .seconds(2), waitAtMost: .seconds(60 * 60))
}
