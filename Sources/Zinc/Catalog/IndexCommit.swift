#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The index as read from its commit point.
struct StoredIndex {
    let index: CatalogIndex
    /// The JSON every copy must hold.
    let bytes: [UInt8]
    /// The version of `catalog.json` to compare-and-swap; nil when the catalog has only
    /// the legacy copies (catalogs of the original tool may lack `catalog.json`).
    let version: StorageVersion?
    /// Set when `catalog.json` is damaged and `bytes` come from another copy.
    var recovery: IndexRecovery? = nil
}

/// The index's four copies and its commit point.
///
/// `catalog.json` is the commit point: a change to the index is one compare-and-swap
/// of that file, against the version read, so of two writers that read the same index
/// one wins and the other reads again and retries, whatever the backend. The other three
/// copies (`catalog.json.gz`, which the clients read, `index.json` and `index.json.gz`)
/// follow it. Between those writes, or after a kill among them, a copy may lag behind,
/// but every copy is a valid index: whatever an index refers to is written before it,
/// and nothing is deleted while any copy still refers to it. Every command that writes
/// the index first makes lagging copies follow `catalog.json` again, even when it then
/// finds nothing to change, so a re-run that reports success leaves all four equal.
extension Catalog {
    static let commitPoint = "catalog.json"
    /// The copies that follow the commit point, in the order they are written.
    static let indexCopies = ["catalog.json.gz", "index.json", "index.json.gz"]
    /// How many compare-and-swaps one change may lose to other writers before giving up.
    static let indexAttempts = 64

    /// The index as currently stored.
    package func index() throws -> CatalogIndex {
        try readIndex().index
    }

    func readIndex() throws -> StoredIndex {
        if let content = try storage.readVersioned(Self.commitPoint) {
            let index: CatalogIndex
            do {
                index = try CatalogIndex.parse(content.bytes, path: storage.location + "/" + Self.commitPoint)
            } catch let damage as ZincError where damage.code == .corruptFile && (try? JSONValue.parse(content.bytes)) == nil {
                // Damaged bytes (a disk, a truncation): another copy holds the index. A
                // JSON document that is no valid index was put there, and is refused.
                return try recoverIndex(damaged: content.version, damage: damage)
            }
            return StoredIndex(index: index, bytes: content.bytes, version: content.version)
        }
        if let bytes = try storage.read("index.json") {
            return StoredIndex(index: try CatalogIndex.parse(bytes, path: storage.location + "/index.json"), bytes: bytes, version: nil)
        }
        throw ZincError.catalogNotFound(storage.location)
    }

    /// Writes the four copies of a new catalog's index; `catalog.json` only if absent.
    func createIndex(_ index: CatalogIndex) throws {
        _ = try CommitSigning(catalog: self).signBeforeCommit(index, bytes: index.encoded(), replacing: nil)
        guard try storage.write(index.encoded(), to: Self.commitPoint, .ifAbsent) == .written else {
            throw ZincError.catalogExists(storage.location)
        }
        try publishCopies(of: index.encoded(), stale: Self.indexCopies)
    }

    /// Changes the index by compare-and-swap on its commit point: reads it, lets `change`
    /// edit it, and commits the result only if no other writer committed meanwhile;
    /// otherwise reads again and calls `change` again (so `change` must only decide, from
    /// the index it is given and what it reads). Lagging copies are repaired first.
    /// `change` returns what the caller wants back; leaving the index as it was writes
    /// nothing but the repair. Serialized by the storage's writer lock where it has one.
    package func updateIndex<R>(_ change: (inout CatalogIndex) throws -> R) throws -> R {
        try storage.withWriterLock { try updateIndexLocked(change) }
    }

    /// `updateIndex` for callers already inside `withWriterLock` (which is not reentrant).
    func updateIndexLocked<R>(_ change: (inout CatalogIndex) throws -> R) throws -> R {
        for attempt in 0..<Self.indexAttempts {
            let current = try readIndex()
            try repairCopies(of: current)
            var updated = current.index
            let result = try change(&updated)
            if updated == current.index { return result }
            try updated.checkWritable()
            let bytes = updated.encoded()
            if try CommitSigning(catalog: self).signBeforeCommit(updated, bytes: bytes, replacing: current.index),
                try storage.write(bytes, to: Self.commitPoint, current.version.map { .ifMatch($0) } ?? .ifAbsent) == .written
            {
                try publishCopies(of: bytes, stale: Self.indexCopies)
                try CommitSigning(catalog: self).signatureFollowsCommit(replacing: current.bytes)
                return result
            }
            // Another writer committed (or signed) first: back off a little, more each time, at random.
            sleepThread(for: .seconds(Double.random(in: 0...0.002) * Double(min(attempt + 1, 50))))
        }
        throw ZincError.indexKeptChanging(location: storage.location, attempts: Self.indexAttempts)
    }

    /// Makes every copy of the index hold what its commit point holds (creating the
    /// commit point of a legacy catalog), for commands that change nothing else.
    public func repairIndexCopies() throws {
        try storage.withWriterLock { try repairCopies(of: readIndex()) }
    }

    func repairCopies(of current: StoredIndex) throws {
        var stale = try Self.indexCopies.compactMap { name in try staleness(of: name, given: current.bytes).map { (name, $0) } }
        if let recovery = current.recovery, let version = current.version {
            // A damaged commit point is replaced only if no writer replaced it meanwhile;
            // one that did wrote its own copies after it, which `publishCopies` follows.
            logger.notice(
                "repairing catalog.json of '\(storage.location)' from \(recovery.source) (catalog.json was damaged: \(recovery.damage))")
            guard try storage.write(current.bytes, to: Self.commitPoint, .ifMatch(version)) == .written else { return }
        } else if current.version == nil {
            // A legacy catalog: `catalog.json` appears first, as the commit point from now on.
            _ = try storage.write(current.bytes, to: Self.commitPoint, .ifAbsent)
            stale = Self.indexCopies.map { name in stale.first { $0.0 == name } ?? (name, "following the new catalog.json") }
        }
        if !stale.isEmpty {
            let reasons = stale.map { "\($0.0) (\($0.1))" }.joined(separator: ", ")
            logger.notice("repairing \(reasons) of '\(storage.location)'")
            try publishCopies(of: current.bytes, stale: stale.map(\.0))
        }
    }

    /// Writes `bytes` to the `stale` copies, then looks at the commit point again: a
    /// writer that committed meanwhile may have written its copies before these landed,
    /// so the copies follow the newest commit until the commit point holds what they do.
    private func publishCopies(of bytes: [UInt8], stale: [String]) throws {
        var bytes = bytes
        var stale = stale
        for _ in 0..<Self.indexAttempts {
            let gz = GzipCompressor.compress(bytes)
            for name in stale { try storage.write(name.hasSuffix(".gz") ? gz : bytes, to: name) }
            // The index files alone: whatever they refer to was flushed before they were
            // written, and a reservation need not wait for the objects its import is
            // still writing back.
            try storage.flush(files: [Self.commitPoint] + stale)
            guard let now = try storage.read(Self.commitPoint), now != bytes else { return }
            bytes = now
            stale = Self.indexCopies
        }
        throw ZincError.indexCopiesKeptChanging(location: storage.location)
    }

    /// Why the copy `name` does not hold `bytes` (gunzipped, for the `.gz` copies); nil
    /// when it does. A damaged or oversized copy does not: it is stale and gets rewritten.
    private func staleness(of name: String, given bytes: [UInt8]) throws -> String? {
        guard let stored = try storage.read(name) else { return "missing" }
        if try indexCopy(stored, gzipped: name.hasSuffix(".gz"), holds: bytes) { return nil }
        do {
            let plain = name.hasSuffix(".gz") ? try GzipDecompressor.decompress(stored, limit: Self.indexCopyLimit) : stored
            _ = try CatalogIndex.parse(plain, path: name)
            return "left behind by an interrupted writer"
        } catch let error as ZincError {
            guard error.code == .corruptFile, let reason = error.reason else { return "damaged: \(error)" }
            return "damaged: \(reason)"
        } catch {
            return "damaged: \(error)"
        }
    }

    private func indexCopy(_ stored: [UInt8], gzipped: Bool, holds bytes: [UInt8]) throws -> Bool {
        guard gzipped else { return stored == bytes }
        var matches = true
        var offset = 0
        let decompressor = GzipDecompressor { piece in
            guard matches, offset + piece.count <= bytes.count,
                bytes[offset..<offset + piece.count].elementsEqual(piece)
            else {
                matches = false
                throw GzipDecompressor.Failure.corrupt("differs")
            }
            offset += piece.count
        }
        do {
            try stored.withUnsafeBytes { try decompressor.update($0) }
            try decompressor.finish()
        } catch {
            return false
        }
        return matches && offset == bytes.count
    }
}

extension Catalog {
    /// Every distinct copy of the index that parses, commit point first (copies holding
    /// the same bytes are parsed once). A lagging copy is still what some client may
    /// read, so nothing any of them lists may be deleted; a damaged copy lists nothing a
    /// client could use.
    func indexCopies() throws -> [CatalogIndex] {
        try intactCopies([Self.commitPoint] + Self.indexCopies).map(\.index)
    }

    /// The most a gzipped copy of the index may unpack to: a gzip bomb stops there.
    static let indexCopyLimit = 1 << 30
}
