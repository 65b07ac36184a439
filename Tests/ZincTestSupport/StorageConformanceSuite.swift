import Foundation
import Zinc

/// What every `CatalogStorage` backend must do, as one suite any backend's tests run
/// with a factory of fresh, empty storages (as restic's backend tests do): a new
/// backend is tested by writing a factory, not new tests. Each check throws a
/// `ConformanceFailure` naming what did not hold. Where the protocol lets backends
/// differ, a check reads what the backend declares (`versionTracking`) and holds it to
/// that, so no backend's tests need to recognise failures as expected.
///
/// Beside the basics (conditional commits, atomic visibility, listings, assembling
/// archives), it races writers: compare-and-swap counters that must lose no increment,
/// create-only commits of which exactly one may win, the import lock, and whole imports
/// of one bundle at once, which must end with distinct versions, each manifest the
/// one its writer reported.
public enum StorageConformanceSuite {
    public typealias Factory = @Sendable () throws -> CatalogStorage

    public struct Check: Sendable {
        public let name: String
        fileprivate let run: @Sendable (Factory) throws -> Void
    }

    public static let checks: [Check] = [
        Check(name: "writes, reads, lists and deletes", run: writesReadsListsAndDeletes),
        Check(name: "honours write conditions", run: honoursWriteConditions),
        Check(name: "a discarded or abandoned writer leaves nothing", run: unfinishedWritersLeaveNothing),
        Check(name: "assembles pieces in order", run: assemblesPiecesInOrder),
        Check(name: "assembles large and small pieces on 1 and 3 threads", run: assemblesLargeAndSmallPieces),
        Check(name: "assembles pieces over several calls, with writes between", run: assemblesPiecesOverSeveralCalls),
        Check(name: "appends local files, Zinc's own or read by any reader", run: appendsLocalFiles),
        Check(name: "lists the folders in a folder", run: listsFolders),
        Check(name: "racing compare-and-swaps lose no update", run: racingSwapsLoseNothing),
        Check(name: "racing create-only commits: exactly one wins", run: racingCreatesHaveOneWinner),
        Check(name: "the import lock: shared beside shared, exclusive alone", run: importLockExcludes),
        Check(name: "a stale lock object is ignored", run: staleLockIsIgnored),
        Check(name: "concurrent imports of one bundle lose nothing", run: concurrentImportsLoseNothing),
    ]

    public static var checkNames: [String] { checks.map(\.name) }

    public static func run(_ name: String, _ factory: Factory) throws {
        guard let check = checks.first(where: { $0.name == name }) else { throw ConformanceFailure("no check named '\(name)'") }
        try check.run(factory)
    }

    // MARK: Basics

    private static func writesReadsListsAndDeletes(_ make: Factory) throws {
        let storage = try make()
        try expect(try storage.read("objects/ab/cd/x") == nil, "a missing file reads as nil")
        try expect(try storage.size(of: "objects/ab/cd/x") == nil, "a missing file has no size")
        try storage.write(Array("hello".utf8), to: "objects/ab/cd/x")
        try storage.write(Array("other".utf8), to: "manifests/B-1.json")
        try expect(try storage.read("objects/ab/cd/x") == Array("hello".utf8), "read returns what was written")
        try expect(try storage.size(of: "objects/ab/cd/x") == 5, "size")
        try expect(try storage.list("objects") == ["objects/ab/cd/x"], "list is recursive and catalog-relative")
        let entries = try storage.entries(in: "")
        try expect(entries.map(\.path) == ["manifests/B-1.json", "objects/ab/cd/x"], "entries lists every file, sorted")
        try expect(entries.map(\.size) == [5, 5], "entries gives each file's size")
        try expect(
            entries.map(\.fingerprint) == [storage.fingerprint(of: Array("other".utf8)), storage.fingerprint(of: Array("hello".utf8))],
            "entries gives the fingerprints the properties promise")
        var streamed = [UInt8]()
        guard let reader = try storage.openForReading("manifests/B-1.json") else {
            throw ConformanceFailure("openForReading found nothing")
        }
        try reader.forEachChunk(chunkSize: 2) { streamed += $0 }
        try expect(streamed == Array("other".utf8), "streaming read")
        // Flushing named files (the index's, in the root; an object, in its folder)
        // leaves them as they were.
        try storage.write(Array("index".utf8), to: "catalog.json")
        try storage.flush(files: ["catalog.json", "objects/ab/cd/x"])
        try expect(try storage.read("catalog.json") == Array("index".utf8), "a flushed file reads as written")
        try storage.delete("catalog.json")
        try storage.delete("objects/ab/cd/x")
        try storage.delete("objects/ab/cd/x")  // deleting what is gone is fine
        try expect(try storage.list("objects") == [], "deleted files are not listed")
    }

    private static func honoursWriteConditions(_ make: Factory) throws {
        let storage = try make()
        try expect(try storage.write([1], to: "f", .ifAbsent) == .written, "ifAbsent on a new path writes")
        try expect(try storage.write([2], to: "f", .ifAbsent) == .conditionFailed, "ifAbsent never replaces")
        guard let first = try storage.readVersioned("f") else { throw ConformanceFailure("readVersioned found nothing") }
        try expect(first.bytes == [1], "readVersioned returns the bytes")
        try expect(try storage.write([4], to: "f", .ifMatch(first.version)) == .written, "ifMatch on the version read writes")
        try expect(try storage.write([5], to: "f", .ifMatch(first.version)) == .conditionFailed, "ifMatch on an old version fails")
        try expect(try storage.read("f") == [4], "a failed condition changes nothing")
        // The same bytes written again: another version where every commit makes one, the
        // same where versions name the content (the swap is then computed from bytes that
        // are current again, which is all the index needs).
        guard let second = try storage.readVersioned("f") else { throw ConformanceFailure("the file vanished") }
        try storage.write([4], to: "f")
        switch storage.properties.versionTracking {
        case .everyCommit:
            try expect(
                try storage.write([6], to: "f", .ifMatch(second.version)) == .conditionFailed,
                "ifMatch fails after a rewrite with identical bytes")
        case .content:
            try expect(
                try storage.write([6], to: "f", .ifMatch(second.version)) == .written,
                "ifMatch holds after a rewrite with identical bytes, versions tracking content")
        }
        try expect(
            try storage.write([7], to: "missing", .ifMatch(second.version)) == .conditionFailed,
            "ifMatch on a missing file fails")
        try expect(try storage.read("missing") == nil, "and creates nothing")
    }

    private static func unfinishedWritersLeaveNothing(_ make: Factory) throws {
        let storage = try make()
        let writer = try storage.makeWriter(for: "archives/B-1.tar")
        try writer.write([1, 2, 3])
        writer.discard()
        try expect(try storage.read("archives/B-1.tar") == nil, "a discarded writer's file does not exist")
        // A writer abandoned mid-file (its process killed, an upload never completed).
        let abandoned = try storage.makeWriter(for: "archives/B-2.tar")
        try abandoned.write([UInt8](repeating: 7, count: 100_000))
        try expect(
            try storage.read("archives/B-2.tar") == nil && storage.size(of: "archives/B-2.tar") == nil,
            "an uncommitted file is invisible")
        try expect(try storage.list("archives") == [], "uncommitted files are not listed")
        abandoned.discard()
    }

    private static func assemblesPiecesInOrder(_ make: Factory) throws {
        let storage = try make()
        try storage.write(Array("AAAA".utf8), to: "objects/a")
        try storage.write(Array("BB".utf8), to: "objects/b")
        let writer = try storage.makeWriter(for: "out")
        try writer.append(
            pieces: [
                .bytes([0x2D]), .storedFile(path: "objects/a", size: 4), .bytes([0x2D]),
                .storedFile(path: "objects/b", size: 2),
            ], workers: nil)
        try writer.write(Array("!".utf8))
        try expect(try writer.commit(.always) == .written, "commit")
        try expect(try storage.read("out") == Array("-AAAA-BB!".utf8), "pieces in order")
        let liar = try storage.makeWriter(for: "bad")
        defer { liar.discard() }
        do {
            try liar.append(pieces: [.storedFile(path: "objects/b", size: 5)], workers: nil)
            throw ConformanceFailure("a stored file of another size than declared was accepted")
        } catch is WritePieceMismatch {}
    }

    /// Small and large members mixed, as in an archive of assets: backends may treat
    /// them differently (FileStorage cuts them into blocks that threads fill, S3 fetches
    /// each member), on one thread or several.
    private static func assemblesLargeAndSmallPieces(_ make: Factory) throws {
        for workers in [1, 3] {
            let storage = try make()
            let large = SampleContent.noise(700_000, seed: 8), small = SampleContent.text(3000)
            try storage.write(large, to: "objects/large")
            try storage.write(small, to: "objects/small")
            var pieces = [WritePiece]()
            var expected = [UInt8]()
            for i in 0..<600 {  // more than one batch of small pieces
                pieces += [.bytes([UInt8(i % 256)]), .storedFile(path: "objects/small", size: 3000)]
                expected += [UInt8(i % 256)] + small
            }
            pieces += [.storedFile(path: "objects/large", size: 700_000), .bytes([7])]
            expected += large + [7]
            let writer = try storage.makeWriter(for: "out")
            try writer.append(pieces: pieces, workers: workers)
            try expect(writer.bytesWritten == Int64(expected.count), "bytesWritten counts every piece")
            try expect(try writer.commit(.always) == .written, "commit")
            try expect(try storage.read("out") == expected, "the assembled bytes on \(workers) threads")
            for (path, claimed) in [
                ("objects/small", 2999), ("objects/small", 3001), ("objects/large", 699_999), ("objects/large", 700_001),
            ] {
                let liar = try storage.makeWriter(for: "bad")
                defer { liar.discard() }
                do {
                    try liar.append(pieces: [.bytes([1]), .storedFile(path: path, size: Int64(claimed))], workers: workers)
                    throw ConformanceFailure("\(path) declared as \(claimed) bytes was accepted")
                } catch is WritePieceMismatch {}
            }
        }
    }

    /// An archive goes out in batches of pieces whose ends fall anywhere in a page, some
    /// spanning several blocks, with plain writes between them and empty members:
    /// FileStorage keeps the bytes after a batch's last whole page for the next one.
    private static func assemblesPiecesOverSeveralCalls(_ make: Factory) throws {
        let storage = try make()
        let large = SampleContent.noise(1_500_000, seed: 9), small = Array("xyz".utf8)
        try storage.write(large, to: "objects/large")
        try storage.write(small, to: "objects/small")
        try storage.write([], to: "objects/empty")
        let writer = try storage.makeWriter(for: "out")
        var expected = [UInt8]()
        for round in 0..<6 {
            let lead = [UInt8](repeating: UInt8(round), count: 100 + round * 1000)
            var pieces: [WritePiece] = [.bytes(lead), .storedFile(path: "objects/empty", size: 0)]
            expected += lead
            if round % 2 == 0 {
                pieces.append(.storedFile(path: "objects/large", size: Int64(large.count)))
                expected += large
            }
            for _ in 0..<round * 40 {
                pieces.append(.storedFile(path: "objects/small", size: 3))
                expected += small
            }
            try writer.append(pieces: pieces, workers: 2)
            if round == 3 {
                try writer.write([9, 9])
                expected += [9, 9]
            }
        }
        try writer.append(storedFile: "objects/small")
        try writer.write(Array("end".utf8))
        expected += small + Array("end".utf8)
        try expect(writer.bytesWritten == Int64(expected.count), "bytesWritten counts every piece and write")
        try expect(try writer.commit(.always) == .written, "commit")
        try expect(try storage.read("out") == expected, "the bytes of every call, in order")
        // An empty member that is no longer empty, where a batch ends on a page boundary.
        let liar = try storage.makeWriter(for: "bad")
        defer { liar.discard() }
        do {
            try liar.append(pieces: [.bytes([UInt8](repeating: 1, count: 4096)), .storedFile(path: "objects/small", size: 0)], workers: 2)
            throw ConformanceFailure("a 3-byte stored file declared empty was accepted")
        } catch is WritePieceMismatch {}
    }

    /// A local file is appended whole, first or after other bytes, and bytes written after
    /// it follow it, whether Zinc opened it (where backends copy in the kernel or upload
    /// from the descriptor) or another reader streams it (the protocol's default).
    private static func appendsLocalFiles(_ make: Factory) throws {
        let storage = try make()
        let dir = try TemporaryDirectory()
        let content = SampleContent.noise(300_000, seed: 11)
        let file = try dir.write("local", content)
        let (once, again) = try (PosixFile.openForReading(file), PosixFile.openForReading(file))
        let first = try storage.makeWriter(for: "objects/first")
        defer { first.discard() }
        try first.append(localFile: once)
        try first.write(Array("end".utf8))
        try expect(first.bytesWritten == Int64(content.count + 3), "bytesWritten counts a local file")
        try expect(try first.commit(.always) == .written, "commit")
        try expect(try storage.read("objects/first") == content + Array("end".utf8), "a local file, then bytes")
        let later = try storage.makeWriter(for: "objects/later")
        defer { later.discard() }
        try later.write(Array("lead".utf8))
        try later.append(localFile: again)
        try later.append(localFile: BytesReader(content))
        try expect(try later.commit(.always) == .written, "commit")
        try expect(try storage.read("objects/later") == Array("lead".utf8) + content + content, "bytes, then local files")
    }

    private static func listsFolders(_ make: Factory) throws {
        let storage = try make()
        try expect(try storage.folders(in: "objects") == [], "no folders in a missing folder")
        try storage.write([1], to: "objects/ab/cd/abcd")
        try storage.write([2], to: "objects/ef/01/ef01")
        try storage.write([3], to: "objects/loose")
        try expect(try storage.folders(in: "objects") == ["ab", "ef"], "folders of objects/")
        try expect(try storage.folders(in: "objects/ab") == ["cd"], "folders of objects/ab")
        try expect(try storage.folders(in: "") == ["objects"], "folders of the root")
    }

    // MARK: Races

    /// Threads increment one counter file by read, add, compare-and-swap, retrying when
    /// the swap fails: with atomic swaps no increment is lost.
    private static func racingSwapsLoseNothing(_ make: Factory) throws {
        let storage = try make()
        try storage.write(Array("0".utf8), to: "counter")
        let threads = 4, increments = 25
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                for _ in 0..<increments {
                    while true {
                        guard let current = try storage.readVersioned("counter"),
                            let value = Int(String(decoding: current.bytes, as: UTF8.self))
                        else {
                            throw ConformanceFailure("the counter became unreadable")
                        }
                        if try storage.write(Array(String(value + 1).utf8), to: "counter", .ifMatch(current.version)) == .written { break }
                    }
                }
            } catch { failures.add(error) }
        }
        try failures.check()
        try expect(try storage.read("counter") == Array(String(threads * increments).utf8), "every increment is kept")
    }

    private static func racingCreatesHaveOneWinner(_ make: Factory) throws {
        let storage = try make()
        let threads = 8
        let wins = Failures()
        DispatchQueue.concurrentPerform(iterations: threads) { n in
            if (try? storage.write([UInt8(n)], to: "objects/one", .ifAbsent)) == .written { wins.add(ConformanceFailure("\(n)")) }
        }
        try expect(wins.count == 1, "exactly one create-only commit wins (\(wins.count) did)")
        try expect(try storage.read("objects/one")?.count == 1, "the winner's bytes stay")
    }

    /// Two imports hold the lock at once; `clean` (exclusive) waits for both, and an
    /// import waits for `clean`.
    private static func importLockExcludes(_ make: Factory) throws {
        let storage = try make()
        let log = EventLog()
        let bothIn = DispatchGroup()
        bothIn.enter()
        bothIn.enter()
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let failures = Failures()
        for n in 0..<2 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                do {
                    try storage.withImportLock(exclusive: false) { _ in
                        log.add("import \(n) in")
                        bothIn.leave()
                        release.wait()
                        log.add("import \(n) out")
                    }
                } catch { failures.add(error) }
            }
        }
        guard bothIn.wait(timeout: .now() + 20) == .success else { throw ConformanceFailure("two shared locks could not be held at once") }
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            do { try storage.withImportLock(exclusive: true) { _ in log.add("clean") } } catch { failures.add(error) }
        }
        Thread.sleep(forTimeInterval: 0.3)
        release.signal()
        release.signal()
        guard done.wait(timeout: .now() + 30) == .success else { throw ConformanceFailure("the exclusive lock was never granted") }
        try failures.check()
        try expect(log.events.last == "clean", "clean ran only after both imports left: \(log.events)")
        // And an import started while clean holds the lock waits for it.
        let order = EventLog()
        try storage.withImportLock(exclusive: true) { _ in
            let entered = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                try? storage.withImportLock(exclusive: false) { _ in order.add("import") }
                entered.signal()
            }
            Thread.sleep(forTimeInterval: 0.3)
            order.add("clean done")
            _ = entered  // keeps the semaphore alive until the thread signals
        }
        Thread.sleep(forTimeInterval: 0.1)
        let deadline = Date().addingTimeInterval(20)
        while order.events.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        try expect(order.events == ["clean done", "import"], "an import waits for clean: \(order.events)")
    }

    /// A lock object left by a writer that is gone (not refreshed for longer than the
    /// policy allows) does not keep anyone out.
    private static func staleLockIsIgnored(_ make: Factory) throws {
        let storage = try make()
        let stale = JSONValue.object(["exclusive": .bool(true), "host": .string("gone"), "pid": .int(1), "time": .int(1000)])
        try storage.write(stale.encoded(), to: LockObjects.folder + "/0000stale.json")
        let entered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? storage.withImportLock(exclusive: false) { _ in entered.signal() }
        }
        try expect(entered.wait(timeout: .now() + 10) == .success, "a stale exclusive lock kept an import out")
        try expect(
            try LockObjects(storage: storage, policy: storage.properties.lockPolicy).staleLocks() == [
                LockObjects.folder + "/0000stale.json"
            ],
            "the stale lock is reported for clean")
    }

    /// Four imports of one bundle at once, each of different files: every one is
    /// committed under its own number, with its own manifest, and the catalog verifies.
    private static func concurrentImportsLoseNothing(_ make: Factory) throws {
        let storage = try make()
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.create(id: "com.example.race", in: storage)
        // Archives at import, so that the races rebuild them (see VersionCommit).
        try catalog.setArchivePolicy(.all)
        try SampleContent.basicAdjectives(in: dir, at: "base")
        _ = try catalog.updateBundle("B", from: dir.at("base"), options: BundleImportOptions(workers: 1))
        let writers = 4
        for n in 0..<writers {
            try SampleContent.basicAdjectives(in: dir, at: "src\(n)")
            try dir.write("src\(n)/own.json", SampleContent.text(2000 + n, word: "writer\(n)"))
        }
        let results = Results()
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers) { n in
            do {
                let result = try catalog.updateBundle("B", from: dir.at("src\(n)"), options: BundleImportOptions(workers: 1))
                results.add(n, result)
            } catch { failures.add(error) }
        }
        try failures.check()
        let versions = results.all.compactMap { entry -> Int? in
            if case .created(let version) = entry.result { return version }
            return nil
        }
        try expect(versions.count == writers && Set(versions).count == writers, "each import created its own version: \(results.all)")
        let index = try catalog.index()
        try expect(
            index.bundles["B"]?.versions == [1] + versions.sorted(),
            "the index lists each version once: \(index.bundles["B"]?.versions ?? [])")
        for entry in results.all {
            guard case .created(let version) = entry.result else { continue }
            let manifest = try catalog.manifest(bundle: "B", version: version)
            try expect(
                manifest.files["own.json"]?.sha == sha1Hex(SampleContent.text(2000 + entry.writer, word: "writer\(entry.writer)")),
                "version \(version) holds the files of the writer that reported it")
        }
        let report = try CatalogVerification(catalog).run()
        try expect(report.problems.isEmpty, "the catalog verifies: \(report.problems)")
    }
}

/// A conformance check that did not hold.
public struct ConformanceFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

private func expect(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String) throws {
    guard try condition() else { throw ConformanceFailure(message()) }
}

/// Errors from concurrent lanes.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors = [Error]()
    func add(_ error: Error) { lock.withLock { errors.append(error) } }
    var count: Int { lock.withLock { errors.count } }
    func check() throws {
        if let first = lock.withLock({ errors.first }) { throw ConformanceFailure("a concurrent writer failed: \(first)") }
    }
}

private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list = [String]()
    func add(_ event: String) { lock.withLock { list.append(event) } }
    var events: [String] { lock.withLock { list } }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var list = [(writer: Int, result: BundleUpdateResult)]()
    func add(_ writer: Int, _ result: BundleUpdateResult) { lock.withLock { list.append((writer, result)) } }
    var all: [(writer: Int, result: BundleUpdateResult)] { lock.withLock { list } }
}

/// A reader that is none of Zinc's files: what a backend may be handed by a storage of
/// another kind.
private final class BytesReader: StorageReader {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { rest = bytes[...] }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, rest.count)
        buffer.copyBytes(from: rest.prefix(count))
        rest = rest.dropFirst(count)
        return count
    }
}
