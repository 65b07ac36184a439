import Foundation
import Testing
import Zinc
import ZincTestSupport

/// update_bundle against FORMAT.md: every file it writes, byte for byte.
@Suite struct BundleUpdateTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.mindsnacks.french", in: FileStorage(root: dir.at("cat")))
        // These tests look at the archives an import writes: only a catalog keeping all does.
        try catalog.setArchivePolicy(.all)
    }

    func objectPath(_ sha: String, gz: Bool) -> String {
        "cat/objects/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha)\(gz ? ".gz" : "")"
    }

    @Test func createsAnEmptyCatalogWithAllIndexFiles() throws {
        // Not `cat`, which keeps every archive: a new catalog has no setting of its own.
        _ = try Catalog.create(id: "com.mindsnacks.french", in: FileStorage(root: dir.at("new")))
        #expect(dir.files(under: "new") == ["catalog.json", "catalog.json.gz", "config.json", "index.json", "index.json.gz"])
        let json = try dir.read("new/catalog.json")
        #expect(String(decoding: json, as: UTF8.self) == #"{"bundles":{},"format":"1","id":"com.mindsnacks.french"}"#)
        #expect(try dir.read("new/index.json") == json)
        #expect(try GzipDecompressor.decompress(dir.read("new/catalog.json.gz")) == json)
        #expect(try GzipDecompressor.decompress(dir.read("new/index.json.gz")) == json)
        #expect(String(decoding: try dir.read("new/config.json"), as: UTF8.self) == #"{"gzip_threshold":0.85}"#)
    }

    @Test func refusesToCreateOverAnExistingCatalog() throws {
        let before = try dir.read("cat/catalog.json")
        #expect(throws: ZincError.catalogExists(dir.at("cat"))) {
            try Catalog.create(id: "other.id", in: FileStorage(root: dir.at("cat")))
        }
        #expect(try dir.read("cat/catalog.json") == before)
        #expect(
            throws: ZincError.invalidName(
                kind: "catalog id", value: "bad/id",
                reason: "only letters, digits, '.', '_' and '-' are allowed")
        ) {
            try Catalog.create(id: "bad/id", in: FileStorage(root: dir.at("other")))
        }
    }

    @Test func writesObjectsManifestArchiveAndIndexAsFormatSays() throws {
        let jpg = SampleContent.noise(8640, seed: 1)
        let caf = SampleContent.text(20000, word: "pcm")
        try dir.write("src/photos/85x85/kind.jpg", jpg)
        try dir.write("src/audio/basic-adj-11.caf", caf)
        try dir.write("src/empty.txt", [])
        #expect(try catalog.updateBundle("BasicAdjectives", from: dir.at("src")) == .created(version: 1))

        let jpgSHA = sha1Hex(jpg), cafSHA = sha1Hex(caf), emptySHA = sha1Hex([])
        // Incompressible content stays raw, compressible content is one gzip member.
        #expect(try dir.read(objectPath(jpgSHA, gz: false)) == jpg)
        #expect(!dir.exists(objectPath(jpgSHA, gz: true)))
        let cafGz = try dir.read(objectPath(cafSHA, gz: true))
        #expect(try GzipDecompressor.decompress(cafGz) == caf)
        #expect(!dir.exists(objectPath(cafSHA, gz: false)))
        #expect(try dir.read(objectPath(emptySHA, gz: false)) == [])

        let manifestJSON = try dir.read("cat/manifests/BasicAdjectives-1.json")
        #expect(
            String(decoding: manifestJSON, as: UTF8.self) == """
                {"bundle":"BasicAdjectives","catalog":"com.mindsnacks.french","files":{\
                "audio/basic-adj-11.caf":{"formats":{"gz":{"size":\(cafGz.count)}},"sha":"\(cafSHA)"},\
                "empty.txt":{"formats":{"raw":{"size":0}},"sha":"\(emptySHA)"},\
                "photos/85x85/kind.jpg":{"formats":{"raw":{"size":8640}},"sha":"\(jpgSHA)"}},"flavors":[],"version":1}
                """)
        #expect(try GzipDecompressor.decompress(dir.read("cat/manifests/BasicAdjectives-1.json.gz")) == manifestJSON)

        let members = try #require(TarListing.members(dir.read("cat/archives/BasicAdjectives-1.tar")))
        #expect(members.map(\.name) == [cafSHA + ".gz", emptySHA, jpgSHA].sorted())
        for member in members {
            let sha = String(member.name.prefix(40))
            #expect(member.data == (try dir.read(objectPath(sha, gz: member.name.hasSuffix(".gz")))))
        }

        let index = String(decoding: try dir.read("cat/catalog.json"), as: UTF8.self)
        #expect(
            index
                == #"{"bundles":{"BasicAdjectives":{"distributions":{},"next_version":1,"versions":[1]}},"format":"1","id":"com.mindsnacks.french"}"#
        )
        for mirror in ["cat/index.json"] { #expect(try dir.read(mirror) == Array(index.utf8)) }
        for mirror in ["cat/catalog.json.gz", "cat/index.json.gz"] {
            #expect(try GzipDecompressor.decompress(dir.read(mirror)) == Array(index.utf8))
        }
        // Nothing temporary is left behind.
        #expect(!dir.files(under: "cat").contains { $0.contains(".tmp-") })
    }

    @Test func gzipIsChosenOnlyWhenItSavesFifteenPercent() throws {
        // Half noise, half text: compresses to roughly 55%: gz.
        try dir.write("src/mixed.bin", SampleContent.noise(50_000, seed: 2) + SampleContent.text(50_000))
        // 90% noise: compresses to ~91%: raw.
        try dir.write("src/mostly-noise.bin", SampleContent.noise(90_000, seed: 3) + SampleContent.text(10_000))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let manifest = try catalog.manifest(bundle: "B", version: 1)
        #expect(manifest.files["mixed.bin"]?.object.formats.keys.sorted() == [.gz])
        #expect(manifest.files["mostly-noise.bin"]?.object.formats.keys.sorted() == [.raw])
    }

    @Test func aSingleFileVersionHasNoArchive() throws {
        try dir.write("src/only.txt", "one")
        _ = try catalog.updateBundle("Single", from: dir.at("src"))
        #expect(!dir.exists("cat/archives/Single-1.tar"))
    }

    @Test func sharesOneObjectBetweenPathsWithTheSameContent() throws {
        try dir.write("src/a.txt", SampleContent.text(5000))
        try dir.write("src/copy/a.txt", SampleContent.text(5000))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let members = try #require(TarListing.members(dir.read("cat/archives/B-1.tar")))
        #expect(members.count == 1)
        #expect(dir.files(under: "cat/objects").count == 1)
    }

    @Test func aContentInManyFilesIsStoredOnceWhateverItsSize() throws {
        // Small contents are stored while the cores hash them, so copies of one content
        // can be hashed at the same moment; a large one is stored after hashing.
        let contents = (0..<4).map { SampleContent.text(3000 + $0, word: "word\($0)") } + [SampleContent.text(1_200_000)]
        for i in 0..<64 { try dir.write("src/\(i / 8)/\(i).txt", contents[i % 4]) }
        try dir.write("src/large-1.txt", contents[4])
        try dir.write("src/large-2.txt", contents[4])
        _ = try catalog.updateBundle("B", from: dir.at("src"))

        let shas = contents.map(sha1Hex)
        #expect(dir.files(under: "cat/objects") == shas.sorted().map { String(objectPath($0, gz: true).dropFirst("cat/objects/".count)) })
        #expect(try TarListing.members(dir.read("cat/archives/B-1.tar"))?.map(\.name) == shas.sorted().map { $0 + ".gz" })
        let files = try catalog.manifest(bundle: "B", version: 1).files
        #expect(files.count == 66)
        #expect(
            files.allSatisfy { path, entry in
                entry.sha == (path.hasPrefix("large") ? shas[4] : shas[Int(path.split(separator: "/")[1].dropLast(4))! % 4])
            })
    }

    @Test func importingLeavesTheTreesAccessTimesAlone() throws {
        // Backups, cleaners and caches (zinc's own stat cache pruning among them) read
        // access times; an import reading 100,000 files would also queue as many inode writes.
        try dir.write("src/a.txt", SampleContent.text(5000))
        try dir.write("src/b.png", SampleContent.noise(5000, seed: 1))
        let yesterday = timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0)
        for name in ["a.txt", "b.png"] {
            var times = [yesterday, yesterday]  // atime no later than mtime: relatime would update it
            #expect(utimensat(AT_FDCWD, dir.at("src/" + name), &times, 0) == 0)
        }
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        for name in ["a.txt", "b.png"] {
            var st = stat()
            #expect(stat(dir.at("src/" + name), &st) == 0)
            #expect(st.st_atim.tv_sec == yesterday.tv_sec)
        }
    }

    @Test func unchangedTreeCreatesNothingUnlessForced() throws {
        try SampleContent.basicAdjectives(in: dir)
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 1))
        let before = dir.files(under: "cat")
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .unchanged(version: 1))
        #expect(dir.files(under: "cat") == before)
        #expect(try catalog.updateBundle("B", from: dir.at("src"), options: .init(force: true)) == .created(version: 2))
        // A renamed file is a change even though no content changed.
        try FileManager.default.moveItem(atPath: dir.at("src/Basic Adjectives.js"), toPath: dir.at("src/renamed.js"))
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 3))
    }

    @Test func aNameRespeltInAnotherUnicodeFormIsAChange() throws {
        // "é" precomposed, then as "e" and a combining accent: Swift's String == takes them
        // for one name, but they are two different paths to a file system and a client.
        try dir.write("src/caf\u{E9}.txt", SampleContent.text(100))
        try dir.write("src/other.txt", SampleContent.text(200))
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 1))
        try FileManager.default.moveItem(atPath: dir.at("src/caf\u{E9}.txt"), toPath: dir.at("src/cafe\u{301}.txt"))
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 2))
        #expect(
            try catalog.manifest(bundle: "B", version: 2).paths().map { Array($0.utf8) }
                == [Array("cafe\u{301}.txt".utf8), Array("other.txt".utf8)])
    }

    @Test func archivesFollowLMFOOrderAcrossVersions() throws {
        let a = SampleContent.noise(700, seed: 10), b = SampleContent.noise(900, seed: 11)
        let c = SampleContent.noise(1100, seed: 12), d = SampleContent.noise(1300, seed: 13)
        try dir.write("src/a", a); try dir.write("src/b", b); try dir.write("src/c", c)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try FileManager.default.removeItem(atPath: dir.at("src/c"))
        try dir.write("src/d", d)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let v1 = try #require(TarListing.members(dir.read("cat/archives/B-1.tar"))).map(\.name)
        let v2 = try #require(TarListing.members(dir.read("cat/archives/B-2.tar"))).map(\.name)
        #expect(v1 == [sha1Hex(a), sha1Hex(b), sha1Hex(c)].sorted())
        #expect(v2 == [sha1Hex(d)] + v1.filter { $0 != sha1Hex(c) })
        // A client holding v1 fetches the first member of v2 with one range request.
        let archive = try dir.read("cat/archives/B-2.tar")
        #expect(Array(archive[512..<(512 + d.count)]) == d)
    }

    @Test func reusesAnObjectStoredByAnotherToolAsItIs() throws {
        let text = SampleContent.text(40_000)
        let sha = sha1Hex(text)
        // Another tool stored this compressible content raw; it must be reused, not rewritten.
        try dir.write(objectPath(sha, gz: false), text)
        try dir.write("src/lesson.json", text)
        try dir.write("src/other.json", "{}")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        #expect(try catalog.manifest(bundle: "B", version: 1).files["lesson.json"]?.object.formats == [.raw: 40_000])
        #expect(!dir.exists(objectPath(sha, gz: true)))

        // And a gz object written with another compression level keeps its bytes and size.
        let other = SampleContent.text(30_000, word: "verb")
        let foreignGz = GzipCompressor.compressForTest(other, level: 1)
        try dir.write(objectPath(sha1Hex(other), gz: true), foreignGz)
        try dir.write("src/verbs.json", other)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        #expect(try catalog.manifest(bundle: "B", version: 2).files["verbs.json"]?.object.formats == [.gz: Int64(foreignGz.count)])
        #expect(try dir.read(objectPath(sha1Hex(other), gz: true)) == foreignGz)
    }

    @Test func archiveMembersAreTheStoredObjectsWhereverTheyComeFrom() throws {
        // Stored while hashing (gz and raw), found stored (another tool's gz, another
        // level), streamed (over 1 MiB), and one content in two files.
        let text = SampleContent.text(30_000), noise = SampleContent.noise(5_000, seed: 21)
        let big = SampleContent.noise((1 << 20) + 7, seed: 22), other = SampleContent.text(20_000, word: "verb")
        let foreignGz = GzipCompressor.compressForTest(other, level: 1)
        try dir.write(objectPath(sha1Hex(other), gz: true), foreignGz)
        for (path, bytes) in [("a.json", text), ("b.bin", noise), ("c.bin", big), ("d.json", other), ("e.json", text)] {
            try dir.write("src/" + path, bytes)
        }
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let members = try #require(TarListing.members(dir.read("cat/archives/B-1.tar")))
        #expect(members.count == 4)
        for member in members {
            let sha = String(member.name.prefix(40))
            #expect(member.data == (try dir.read(objectPath(sha, gz: member.name.hasSuffix(".gz")))), "\(member.name)")
        }
        #expect(members.first { $0.name.hasPrefix(sha1Hex(other)) }?.data == foreignGz)
    }

    @Test func versionsAreNeverReused() throws {
        try dir.write("src/a.txt", "1")
        try dir.write("src/b.txt", "2")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/b.txt", "3")
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        // Drop version 2 from the index, as a deletion would: its number stays reserved.
        try catalog.updateIndex { $0.bundles["B"]!.versions = [1] }
        try dir.write("src/b.txt", "4")
        #expect(try catalog.updateBundle("B", from: dir.at("src")) == .created(version: 3))
        #expect(try catalog.index().bundles["B"] == .init(versions: [1, 3], distributions: [:], nextVersion: 3))
    }

    /// The same tree gives the same catalog, byte for byte, whether one thread does all
    /// the work or several share it in whatever order they get to it. Two versions, so
    /// the second's archives follow LMFO order over the first; with flavors, so a
    /// version has several archives.
    @Test func identicalInputGivesByteIdenticalCatalogsWhateverTheWorkers() throws {
        try SampleContent.mixedTree(in: dir)
        let spec = try Flavorspec.parse(
            Array(#"{"text": ["+ lessons/*", "+ *.caf"], "media": ["- lessons/*", "+ *"]}"#.utf8),
            source: "spec.json")
        let runs: [(folder: String, workers: Int?)] = [("one", 1), ("two", 2), ("five", 5), ("cores", nil)]
        for run in runs {
            let catalog = try Catalog.create(id: "com.mindsnacks.french", in: FileStorage(root: dir.at(run.folder)))
            try catalog.setArchivePolicy(.all)
            let options = BundleImportOptions(flavorspec: spec, includeMasterArchive: true, workers: run.workers)
            #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 1))
        }
        try dir.write("src/lessons/0/lesson-0.json", SampleContent.text(5000, word: "edited"))
        try dir.write("src/video/intro.mp4", SampleContent.noise(1_300_001, seed: 92))
        try dir.write("src/photos/new.jpg", SampleContent.noise(3000, seed: 93))
        // Deflated alone on every core, after the other files; sparse, so quick to make.
        let huge = try PosixFile.open(dir.at("src/audio/huge.caf"), flags: O_CREAT | O_WRONLY)
        try huge.write(SampleContent.text(300_000, word: "pcm"), at: 5_000_000)
        #expect(ftruncate(huge.fd, off_t(ObjectStore.deflateOnAllCoresFrom + 1)) == 0)
        try FileManager.default.removeItem(atPath: dir.at("src/photos/1/photo-1.jpg"))
        for run in runs {
            let catalog = try Catalog.open(FileStorage(root: dir.at(run.folder)))
            let options = BundleImportOptions(flavorspec: spec, includeMasterArchive: true, workers: run.workers)
            #expect(try catalog.updateBundle("B", from: dir.at("src"), options: options) == .created(version: 2))
            #expect(try CatalogVerification(catalog, workers: run.workers).run().isOK)
        }
        let reference = try dir.catalogContent("one")
        #expect(reference.keys.contains("archives/B-2~media.tar") && reference.keys.contains("archives/B-2.tar"))
        for run in runs.dropFirst() {
            let content = try dir.catalogContent(run.folder)
            #expect(content.keys.sorted() == reference.keys.sorted(), "\(run.folder)")
            for (file, bytes) in reference { #expect(content[file] == bytes, "\(run.folder)/\(file) differs") }
        }
    }

    @Test func refusesInvalidBundleNames() throws {
        try dir.write("src/a.txt", "a")
        for (name, reason) in [
            ("", "it is empty"), ("a/b", "it contains '/' (a name may hold any character but slashes, '~' and control characters)"),
            ("a~b", "it contains '~' (a name may hold any character but slashes, '~' and control characters)"),
            (".hidden", "it must not start with '.'"),
            ("a\u{7}b", "it contains a control character (a name may hold any character but slashes, '~' and control characters)"),
        ] {
            #expect(throws: ZincError.invalidName(kind: "bundle name", value: name, reason: reason)) {
                try catalog.updateBundle(name, from: dir.at("src"))
            }
        }
        #expect(try catalog.updateBundle("Lesson-01", from: dir.at("src")) == .created(version: 1))
    }

    @Test func aBadSourceLeavesTheCatalogUntouched() throws {
        try dir.write("src/a.txt", "a")
        try FileManager.default.createSymbolicLink(atPath: dir.at("src/bad"), withDestinationPath: "/etc/hostname")
        let before = try dir.catalogContent("cat")
        #expect(throws: ZincError.self) { try catalog.updateBundle("B", from: dir.at("src")) }
        #expect(try dir.catalogContent("cat") == before)
    }
}

extension GzipCompressor {
    /// A gzip stream at another level, standing in for another tool's output.
    static func compressForTest(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        var out = [UInt8]()
        let compressor = GzipCompressor(level: level) { out.append(contentsOf: $0) }
        try! bytes.withUnsafeBytes { try compressor.update($0) }
        try! compressor.finish()
        return out
    }
}
