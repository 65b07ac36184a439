import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Locks for stores that have none (object stores), after restic's `locks/`: each
/// holder writes `locks/<random id>.json`, then lists `locks/`. Because every writer
/// writes before it looks, two writers racing for conflicting locks cannot both miss
/// each other: at least one sees the other, steps back (deleting its own object) and
/// tries again after a random pause. A holder rewrites its object every
/// `refreshEvery`; one not refreshed for `staleAfter` belongs to a writer that is gone
/// and is ignored (and removed by `clean`).
///
/// A lock object is `{"exclusive": BOOL, "host": "…", "pid": N, "time": MS}`, `time`
/// being the last refresh in milliseconds since 1970 by the holder's clock. Old clients
/// and tools never look in `locks/`.
public struct LockObjects: StorageLocks {
    public static let folder = "locks"

    let storage: CatalogStorage
    let policy: LockPolicy

    public init(storage: CatalogStorage, policy: LockPolicy) {
        self.storage = storage
        self.policy = policy
    }

    /// Runs `body` holding a shared or exclusive lock object, waiting for conflicting
    /// ones up to the policy's limit.
    public func withImportLock<T>(exclusive: Bool, _ body: (HeldLock) throws -> T) throws -> T {
        let held = try acquire(exclusive: exclusive)
        defer { held.release() }
        return try body(held)
    }

    /// A store without locks has no writer lock: index writers rely on its conditional
    /// commits alone.
    public func withWriterLock<T>(_ body: () throws -> T) throws -> T { try body() }

    private func acquire(exclusive: Bool) throws -> LockObjectHolder {
        let deadline = ContinuousClock.now + policy.waitAtMost
        var announced = false
        while true {
            let path = "\(Self.folder)/\(Self.randomID()).json"
            let record = LockRecord(exclusive: exclusive, host: Self.hostName, pid: Int(getpid()), time: WallClock.nowMilliseconds())
            guard try storage.write(record.encoded(), to: path, .ifAbsent) == .written else { continue }
            let conflicts: [LockRecord]
            do {
                conflicts = try liveLocks(except: path).filter { exclusive || $0.record.exclusive }.map(\.record)
            } catch {
                try? storage.delete(path)
                throw error
            }
            if conflicts.isEmpty { return LockObjectHolder(storage: storage, path: path, record: record, policy: policy) }
            try storage.delete(path)
            if !announced {
                // A wait can last as long as another writer's import: say what it waits for.
                announced = true
                Logger(label: "zinc").notice(
                    "waiting for \(Self.describe(conflicts)) on '\(storage.location)' (up to \(policy.waitAtMost); a lock not refreshed for \(policy.staleAfter) is ignored)"
                )
            }
            guard ContinuousClock.now < deadline else {
                throw ZincError.catalogLocked(
                    location: storage.location, holders: conflicts.map(\.holder),
                    waited: policy.waitAtMost)
            }
            sleepThread(for: policy.retryEvery * Double.random(in: 0.5...1.5))
        }
    }

    private static func describe(_ holders: [LockRecord]) -> String {
        holders.map(\.holder.description).joined(separator: ", ")
    }

    /// The lock objects other than `path` that are not stale, with their paths.
    func liveLocks(except path: String? = nil) throws -> [(path: String, record: LockRecord)] {
        try locks().compactMap { other, record in
            guard other != path, let record, !isStale(record) else { return nil }
            return (other, record)
        }
    }

    /// Lock objects whose holders are gone: stale ones, and ones that are not lock
    /// records at all (nothing but a lock would write there). One listing decides, so a
    /// lock written meanwhile is never taken for stale.
    public func staleLocks() throws -> [String] {
        try locks().compactMap { path, record in record.map(isStale) == false ? nil : path }
    }

    /// Every object in `locks/` with its record, nil for one that is not a lock record;
    /// one deleted since the listing is left out.
    private func locks() throws -> [(path: String, record: LockRecord?)] {
        try storage.list(Self.folder).compactMap { path in
            guard let bytes = try storage.read(path) else { return nil }
            return (path, try? LockRecord.parse(bytes))
        }
    }

    private func isStale(_ record: LockRecord) -> Bool {
        WallClock.nowMilliseconds() - record.time >= WallClock.milliseconds(policy.staleAfter)
    }

    private static func randomID() -> String {
        (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16).leftPadded(to: 8) }.joined()
    }

    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}

/// The content of one lock object.
package struct LockRecord: Equatable, Sendable {
    let exclusive: Bool
    let host: String
    let pid: Int
    /// The last refresh, in milliseconds since 1970.
    let time: Int64

    var holder: ZincError.LockHolder { ZincError.LockHolder(exclusive: exclusive, pid: pid, host: host) }

    func encoded() -> [UInt8] {
        JSONValue.object(["exclusive": .bool(exclusive), "host": .string(host), "pid": .int(Int64(pid)), "time": .int(time)]).encoded()
    }

    package static func parse(_ bytes: [UInt8]) throws -> LockRecord {
        guard let object = try JSONValue.parse(bytes).objectValue, case .bool(let exclusive)? = object["exclusive"],
            let host = object["host"]?.stringValue, let pid = object["pid"]?.intValue, let time = object["time"]?.intValue
        else { throw ZincError.corruptFile(path: "lock object", reason: "not a lock record") }
        return LockRecord(exclusive: exclusive, host: host, pid: Int(pid), time: time)
    }
}

/// A lock object this process holds, refreshed by a thread of its own until released.
private final class LockObjectHolder: HeldLock, Sendable {
    private let storage: CatalogStorage
    private let path: String
    private let policy: LockPolicy
    /// When the lock object was last written, by the monotonic clock.
    private let lastRefresh = Mutex(ContinuousClock.now)
    /// Set at the end of `init` (its work refers to `self`), stopped by `release`.
    private let refresher = Mutex<PeriodicThread?>(nil)

    init(storage: CatalogStorage, path: String, record: LockRecord, policy: LockPolicy) {
        self.storage = storage
        self.path = path
        self.policy = policy
        let refresher = PeriodicThread(every: policy.refreshEvery.inSeconds) { [self] in
            let refreshed = LockRecord(
                exclusive: record.exclusive, host: record.host, pid: record.pid,
                time: WallClock.nowMilliseconds())
            let started = ContinuousClock.now
            // A failed refresh is retried at the next tick; `confirm` notices when too many fail.
            if (try? storage.write(refreshed.encoded(), to: path)) == .written { lastRefresh.withLock { $0 = started } }
        }
        self.refresher.withLock { $0 = refresher }
    }

    func confirm() throws {
        let sinceRefresh = ContinuousClock.now - lastRefresh.withLock { $0 }
        // Others take the lock as stale after `staleAfter` by their clocks; keep a margin.
        guard sinceRefresh < policy.staleAfter - policy.refreshEvery else {
            throw ZincError.lockNotRefreshed(lock: "\(storage.location)/\(path)", stalledFor: sinceRefresh)
        }
        guard try storage.size(of: path) != nil else {
            throw ZincError.lockRemoved(lock: "\(storage.location)/\(path)")
        }
    }

    func release() {
        refresher.withLock { $0 }?.stop()
        try? storage.delete(path)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
