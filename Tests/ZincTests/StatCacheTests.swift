import Foundation
import Testing
import Zinc
import ZincTestSupport

/// The stat cache vouches for a file only while every stamp is unchanged.
@Suite struct StatCacheTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    let options: BundleImportOptions

    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "c", in: FileStorage(root: dir.at("cat")))
        options = BundleImportOptions(statCacheFolder: dir.at("cache"))
        try dir.write("src/a.txt", "alpha content")
        try dir.write("src/b.txt", "bravo content")
        // Stamps younger than the scan are never cached: let these age past that margin.
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 1))
    }

    var cacheFile: String { dir.at("cache/stat/") + (dir.files(under: "cache/stat").first { !$0.hasPrefix(".") } ?? "") }

    /// Rewrites the cached sha of `path`, so a test can see whether the cache was believed.
    /// Unless `keepingMatch`, the cache also forgets which manifest it matched, as a
    /// cache whose content changed would.
    func poison(_ path: String, with sha: String, keepingMatch: Bool = false) throws {
        let text = try String(contentsOfFile: cacheFile, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("matched\t") && !keepingMatch { return "matched\t" }
            return line.hasSuffix("\t" + path) ? sha + line.dropFirst(40) : String(line)
        }
        try lines.joined(separator: "\n").write(toFile: cacheFile, atomically: true, encoding: .utf8)
    }

    /// The cache file's identity and modification time, to tell whether it was rewritten.
    func cacheFileStamp() -> [Int] {
        var st = stat()
        stat(cacheFile, &st)
        return [Int(st.st_ino), st.st_mtim.tv_sec, st.st_mtim.tv_nsec]
    }

    func mtime(_ path: String) -> timespec {
        var st = stat()
        stat(dir.at(path), &st)
        return st.st_mtim
    }

    func setMTime(_ path: String, _ time: timespec) {
        var times = [time, time]
        #expect(utimensat(AT_FDCWD, dir.at(path), &times, 0) == 0)
    }

    func sha(of path: String, version: Int) throws -> String? {
        try catalog.manifest(bundle: "B", version: version).files[path]?.sha
    }

    @Test func contentsItVouchesForAreStillStoredInACatalogLackingThem() throws {
        // Nothing is hashed this time, so every object is stored from its file afterwards.
        let other = try Catalog.create(id: "c2", in: FileStorage(root: dir.at("cat2")))
        #expect(try other.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 1))
        #expect(dir.files(under: "cat2/objects") == dir.files(under: "cat/objects"))
        #expect(try CatalogVerification(other).run().problems.isEmpty)
    }

    @Test func livesOutsideTheSourceAndTheCatalog() throws {
        #expect(dir.files(under: "src") == ["a.txt", "b.txt"])
        #expect(!dir.files(under: "cat").contains { $0.contains("stat") })
        let lines = try String(contentsOfFile: cacheFile, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0] == "zinc-stat-cache 2\t" + URL(fileURLWithPath: dir.at("src")).resolvingSymlinksInPath().path)
        // The digest of the manifest just written, filled in once it was committed.
        let matched = lines[1].dropFirst("matched\t".count)
        #expect(lines[1].hasPrefix("matched\t") && matched.count == 40 && matched.allSatisfy(\.isHexDigit))
    }

    @Test func aTreeMatchingTheNewestVersionIsNotComparedAgainAndNothingIsWritten() throws {
        // The first re-run compares with the manifest and records the match.
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .unchanged(version: 1))
        // Now the cache is believed whole: a poisoned sha goes unnoticed, proving that
        // the manifest was not compared, and the cache file is left as it was.
        try poison("a.txt", with: sha1Hex(Array("bravo content".utf8)), keepingMatch: true)
        let before = cacheFileStamp()
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .unchanged(version: 1))
        #expect(cacheFileStamp() == before)
    }

    @Test func theRecordedMatchCountsOnlyForTheNewestVersionAndTheSameFlavorspec() throws {
        try dir.write("src/c.txt", "charlie")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 2))
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .unchanged(version: 2))
        // Version 2 deleted: the newest is 1 again, without c.txt. The cache matched 2.
        _ = try VersionDeletion(catalog, bundle: "B", versions: [VersionSelection("2")]).run()
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 3))
        // A flavorspec changes the flavors the tree would be stored with.
        let spec = try Flavorspec.parse(Array(#"{"phone": ["- c.txt", "+ *"]}"#.utf8), source: "spec")
        var flavored = options
        flavored.flavorspec = spec
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: flavored) == .created(version: 4))
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: flavored) == .unchanged(version: 4))
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 5))
    }

    @Test func anUnchangedStampIsBelievedWithoutReadingTheFile() throws {
        let bravo = sha1Hex(Array("bravo content".utf8))
        try poison("a.txt", with: bravo)
        // The cache claims a.txt now holds b's content: believing it shows up as a change.
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 2))
        #expect(try sha(of: "a.txt", version: 2) == bravo)
    }

    @Test func touchingAFileMakesItBeHashedAgain() throws {
        try poison("a.txt", with: sha1Hex(Array("bravo content".utf8)))
        var later = mtime("src/a.txt")
        later.tv_sec += 10
        setMTime("src/a.txt", later)
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .unchanged(version: 1))
    }

    @Test func anEditThatKeepsSizeAndMTimeIsStillSeen() throws {
        let before = mtime("src/a.txt")
        try dir.write("src/a.txt", "ALPHA content")  // same size
        setMTime("src/a.txt", before)  // same mtime; ctime moves on regardless
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 2))
        #expect(try sha(of: "a.txt", version: 2) == sha1Hex(Array("ALPHA content".utf8)))
    }

    @Test func aReplacementOfEqualSizeAndMTimeIsStillSeen() throws {
        let before = mtime("src/a.txt")
        try dir.write("elsewhere.txt", "alpha CONTENT")
        setMTime("elsewhere.txt", before)
        #expect(rename(dir.at("elsewhere.txt"), dir.at("src/a.txt")) == 0)  // a new inode with the old size and mtime
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 2))
        #expect(try sha(of: "a.txt", version: 2) == sha1Hex(Array("alpha CONTENT".utf8)))
    }

    @Test(arguments: [
        "", "garbage\n", "zinc-stat-cache 2\t/elsewhere\nmatched\t\n", "zinc-stat-cache 2\tX\nmatched\t\nnot\tenough\tfields\n",
        "zinc-stat-cache 2\tX\n", "zinc-stat-cache 1\tX\n",
        "zinc-stat-cache 2\tX\nmatched\t" + String(repeating: "-", count: 40),
    ])
    func aDamagedCacheIsIgnoredAndRewritten(_ damage: String) throws {
        let damaged = damage.replacingOccurrences(of: "X", with: dir.at("src"))
        try damaged.write(toFile: cacheFile, atomically: true, encoding: .utf8)
        try dir.write("src/a.txt", "changed!")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 2))
        #expect(try sha(of: "a.txt", version: 2) == sha1Hex(Array("changed!".utf8)))
        #expect(try String(contentsOfFile: cacheFile, encoding: .utf8).split(separator: "\n").count == 4)
    }

    @Test func cachesUnusedForAMonthAreDeletedAtMostOnceADay() throws {
        let ownCache = cacheFile
        func age(_ name: String, days: Int) {
            var times = [timespec(tv_sec: time(nil) - days * 24 * 3600, tv_nsec: 0)]
            times.append(times[0])
            #expect(utimensat(AT_FDCWD, dir.at("cache/stat/" + name), &times, 0) == 0)
        }
        func importChange(_ content: String) throws {
            try dir.write("src/a.txt", content)
            Thread.sleep(forTimeInterval: 0.1)
            _ = try catalog.updateBundle("B", from: dir.at("src"), options: options)
        }
        let gone = String(repeating: "0", count: 40) + ".txt", kept = String(repeating: "1", count: 40) + ".txt"
        try dir.write("cache/stat/" + gone, "another tree's cache")
        try dir.write("cache/stat/" + kept, "another tree's cache")
        age(gone, days: StatCache.staleAfterDays + 1)
        age(kept, days: StatCache.staleAfterDays - 1)
        age(".pruned", days: 2)
        try importChange("changed once")
        #expect(
            dir.files(under: "cache/stat").filter { !$0.hasPrefix(".") }.sorted()
                == [(ownCache as NSString).lastPathComponent, kept].sorted())
        // Pruned today already: a cache that just went stale waits for tomorrow.
        age(kept, days: StatCache.staleAfterDays + 1)
        try importChange("changed twice")
        #expect(FileManager.default.fileExists(atPath: dir.at("cache/stat/" + kept)))
    }

    @Test func filesWrittenDuringTheScanAreNotCached() throws {
        try dir.write("src/new.txt", "fresh")  // younger than the scan's racy margin
        _ = try catalog.updateBundle("B", from: dir.at("src"), options: options)
        let text = try String(contentsOfFile: cacheFile, encoding: .utf8)
        #expect(!text.contains("\tnew.txt\n"))
        #expect(text.contains("\ta.txt\n"))
    }
}
