import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Damages a catalog in one way at a time and checks that `verify` reports exactly that.
@Suite struct VerifyTests {
    let dir: TemporaryDirectory
    let catalog: Catalog

    /// Bundle B: version 1 is the talk's three files (a raw photo, two gzipped texts),
    /// version 2 adds a fourth; master points at 2.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        // Every version's archives are checked: kept for each (pointed ones: ArchivePolicyTests).
        try catalog.setArchivePolicy(.all)
        try SampleContent.basicAdjectives(in: dir)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/audio/new.caf", SampleContent.text(9000, word: "new"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .number(2)).run()
    }

    func problems(_ scope: VerificationScope = .catalog) throws -> [String] {
        try CatalogVerification(catalog, scope: scope).run().problems.map(\.description)
    }

    func object(_ file: String, version: Int = 1) throws -> StoredObject {
        try #require(try catalog.manifest(bundle: "B", version: version).files[file]).object
    }

    func flipByte(_ relative: String, at offset: Int) throws {
        var bytes = try dir.read("cat/" + relative)
        bytes[offset < 0 ? bytes.count + offset : offset] ^= 0x20
        try dir.write("cat/" + relative, bytes)
    }

    func rewriteArchive(_ relative: String, _ change: (inout [(name: String, data: [UInt8])]) -> Void) throws {
        var members = try #require(TarListing.members(dir.read("cat/" + relative))).map { (name: $0.name, data: $0.data) }
        change(&members)
        try dir.write("cat/" + relative, tarArchive(members))
    }

    @Test func anIntactCatalogHasNoProblems() throws {
        let report = try CatalogVerification(catalog).run()
        #expect(report == VerificationReport(problems: [], bundles: 1, versions: 2, objects: 4, archives: 2))
        #expect(report.summary == "Verified 1 bundle, 2 versions, 4 objects, 2 archives: no problems")
        #expect(
            String(decoding: try JSONValueEncoder().encode(report).encoded(), as: UTF8.self)
                == #"{"checked":{"archives":2,"bundles":1,"objects":4,"unarchived":0,"versions":2},"ok":true,"problems":[]}"#)
    }

    @Test func findsAMissingObject() throws {
        let photo = try object("photos/85x85/kind.jpg")
        try FileManager.default.removeItem(atPath: dir.at("cat/" + photo.preferredPath))
        let report = try CatalogVerification(catalog).run()
        #expect(report.problems.map(\.description) == ["\(photo.preferredPath): missing (manifests/B-1.json refers to it)"])
        #expect(report.summary == "Verified 1 bundle, 2 versions, 4 objects, 2 archives: 1 problem")
    }

    @Test func findsATruncatedObject() throws {
        let photo = try object("photos/85x85/kind.jpg")
        try dir.write("cat/" + photo.preferredPath, Array(try dir.read("cat/" + photo.preferredPath).prefix(100)))
        #expect(try problems() == ["\(photo.preferredPath): is 100 bytes, manifests/B-1.json records 8640"])
    }

    @Test func findsARawObjectWhoseContentChanged() throws {
        let photo = try object("photos/85x85/kind.jpg")
        try flipByte(photo.preferredPath, at: 4000)
        let damaged = sha1Hex(try dir.read("cat/" + photo.preferredPath))
        // The archives still hold the right bytes: only the object is reported.
        #expect(try problems() == ["\(photo.preferredPath): its content hashes to \(damaged), not to its name"])
    }

    @Test func findsAFlippedByteInAGzipObject() throws {
        let audio = try object("audio/basic-adj-11.caf")
        #expect(audio.preferredFormat == .gz)
        try flipByte(audio.preferredPath, at: -8)  // the CRC-32 of the gzip trailer
        #expect(try problems() == ["\(audio.preferredPath): not a valid gzip stream (incorrect data check)"])
    }

    @Test func findsAnArchiveMissingAMember() throws {
        var dropped = ""
        try rewriteArchive("archives/B-2.tar") { dropped = $0.removeFirst().name }
        #expect(try problems() == ["archives/B-2.tar: lacks member '\(dropped)'"])
    }

    @Test func findsMembersOutOfLMFOOrder() throws {
        var names = [String]()
        try rewriteArchive("archives/B-2.tar") { members in
            members.swapAt(0, 1)
            names = members.map(\.name)
        }
        // The record gives the exact order: the first member is already wrong.
        #expect(try problems() == ["archives/B-2.tar: members are not in the LMFO order of lmfo/B-2.json from member 1 ('\(names[0])') on"])
        // Without the record (catalogs of other tools), the order is checked against the
        // history, which allows any order some history with deleted versions could give.
        try FileManager.default.removeItem(atPath: dir.at("cat/lmfo/B-2.json"))
        #expect(try problems() == ["archives/B-2.tar: members are not in LMFO order from member 2 ('\(names[1])') on"])
    }

    @Test func findsARecordThatDisagreesWithTheManifests() throws {
        let text = String(decoding: try dir.read("cat/lmfo/B-2.json"), as: UTF8.self)
        // Every object of version 2 claimed new in it, though version 1 has some.
        let wrong = text.replacingOccurrences(of: #""1":["#, with: #""2":["#)
        #expect(wrong != text)
        try dir.write("cat/lmfo/B-2.json", wrong.replacingOccurrences(of: #"],"2":["#, with: ","))
        let found = try problems()
        #expect(found.count == 1 && found[0].hasPrefix("lmfo/B-2.json: object ") && found[0].hasSuffix("has intro 2, not 1"), "\(found)")
        try dir.write("cat/lmfo/B-2.json", "{}")
        #expect(try problems() == ["lmfo/B-2.json: not a valid Zinc file: not the record of version 2"])
    }

    @Test func findsAMemberWhoseBytesDifferFromItsObject() throws {
        let photo = try object("photos/85x85/kind.jpg")
        try rewriteArchive("archives/B-1.tar") { members in
            members[members.firstIndex { $0.name == photo.fileName }!].data[10] ^= 0x01
        }
        #expect(try problems() == ["archives/B-1.tar: member '\(photo.fileName)' differs from \(photo.preferredPath)"])
    }

    @Test func findsAnUnexpectedOrRepeatedMember() throws {
        try rewriteArchive("archives/B-1.tar") { members in
            members.append(members[0])
            members.append((name: "stray.txt", data: [1, 2, 3]))
        }
        let first = try #require(TarListing.members(dir.read("cat/archives/B-1.tar"))?.first?.name)
        #expect(
            try problems() == [
                "archives/B-1.tar: holds member '\(first)' more than once",
                "archives/B-1.tar: holds unexpected member 'stray.txt'",
            ])
    }

    @Test func acceptsArchivesWrittenBeforeAnEarlierVersionWasDeleted() throws {
        try dir.write("src/audio/third.caf", SampleContent.text(7000, word: "third"))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        let written = try #require(TarListing.members(dir.read("cat/archives/B-3.tar"))).map(\.name)
        _ = try VersionDeletion(catalog, bundle: "B", versions: [.spec(.number(1))]).run()
        // Recomputed from the versions still listed, the order would differ: version 1 set it.
        let manifest = try catalog.manifest(bundle: "B", version: 3)
        let recomputed = try LMFOOrder.order(objects: Set(manifest.objects().keys), version: 3, earlierVersions: [2]) {
            Set(try catalog.manifest(bundle: "B", version: $0).objects().keys)
        }.map { manifest.objects()[$0]!.fileName }
        #expect(recomputed != written)
        #expect(try problems().isEmpty)

        // Its record still describes it, so members out of place are caught exactly...
        try rewriteArchive("archives/B-3.tar") { $0.swapAt(0, 1) }
        #expect(
            try problems() == ["archives/B-3.tar: members are not in the LMFO order of lmfo/B-3.json from member 1 ('\(written[1])') on"])
        // ...and without the record, where no history could have put them.
        try FileManager.default.removeItem(atPath: dir.at("cat/lmfo/B-3.json"))
        #expect(try problems() == ["archives/B-3.tar: members are not in LMFO order from member 2 ('\(written[0])') on"])
    }

    @Test func findsAMissingOrTruncatedArchive() throws {
        try FileManager.default.removeItem(atPath: dir.at("cat/archives/B-1.tar"))
        let members = try #require(TarListing.members(dir.read("cat/archives/B-2.tar")))
        let cut = 512 + members[0].data.count / 2  // inside the first member's data
        try dir.write("cat/archives/B-2.tar", Array(try dir.read("cat/archives/B-2.tar").prefix(cut)))
        let found = try problems()
        #expect(
            found == ["archives/B-1.tar: missing", "archives/B-2.tar: is truncated at byte \(cut)"]
                + members.map { "archives/B-2.tar: lacks member '\($0.name)'" }.sorted())

        // Cut after a whole member, the archive lacks only its end and the later members.
        let boundary = 512 + Int(TarHeader.paddedLength(Int64(members[0].data.count)))
        try dir.write("cat/archives/B-2.tar", Array(try tarArchive(members.map { (name: $0.name, data: $0.data) }).prefix(boundary)))
        let cutAtMember = try problems()
        #expect(
            cutAtMember == ["archives/B-1.tar: missing", "archives/B-2.tar: ends at byte \(boundary) without the end-of-archive blocks"]
                + members.dropFirst().map { "archives/B-2.tar: lacks member '\($0.name)'" }.sorted())
    }

    @Test func findsADistributionPointingAtAMissingVersion() throws {
        try catalog.updateIndex { $0.bundles["B"]!.distributions["test"] = 7 }
        #expect(try problems() == ["catalog.json: distribution 'test' of 'B' points at version 7, which the index does not list"])
        #expect(try problems(.bundle("B")).count == 1)
        #expect(try problems(.version(bundle: "B", .number(2))).isEmpty)
    }

    @Test func findsIndexFilesThatDisagree() throws {
        let json = try dir.read("cat/catalog.json")
        try dir.write("cat/index.json", json + Array(" ".utf8))
        try dir.write("cat/catalog.json.gz", GzipCompressor.compress(Array(#"{"bundles":{}}"#.utf8)))
        try dir.write("cat/index.json.gz", "not gzip")
        #expect(
            try problems() == [
                "catalog.json.gz: does not gunzip to the bytes of catalog.json",
                "index.json: differs from catalog.json",
                "index.json.gz: not a valid gzip stream (incorrect header check)",
            ])
    }

    @Test func findsAMissingIndexFileAndAGzipWithASecondMember() throws {
        let json = try dir.read("cat/catalog.json")
        try FileManager.default.removeItem(atPath: dir.at("cat/index.json"))
        try dir.write("cat/catalog.json.gz", GzipCompressor.compress(json) + GzipCompressor.compress([]))
        #expect(
            try problems() == [
                "catalog.json.gz: holds data after its gzip stream (clients inflate only the first member)",
                "index.json: missing",
            ])
    }

    @Test func findsAMissingManifest() throws {
        for name in ["B-1.json", "B-1.json.gz"] { try FileManager.default.removeItem(atPath: dir.at("cat/manifests/" + name)) }
        // Version 2's archive order depends on version 1, so it cannot be checked either.
        #expect(
            try problems() == [
                "archives/B-2.tar: its member order cannot be checked: bundle 'B' has no version 1 (its manifest is missing)",
                "manifests/B-1.json: missing (the index lists version 1 of 'B')",
            ])
    }

    @Test func findsAManifestWithoutItsGzipOrDifferentFromIt() throws {
        try FileManager.default.removeItem(atPath: dir.at("cat/manifests/B-1.json.gz"))
        let manifest = try dir.read("cat/manifests/B-2.json")
        try dir.write("cat/manifests/B-2.json.gz", GzipCompressor.compress(manifest + Array("\n".utf8)))
        let found = try problems()
        #expect(
            found.filter { !$0.hasPrefix("manifest-chunks/") } == [
                "manifests/B-1.json.gz: missing",
                "manifests/B-2.json.gz: does not gunzip to the bytes of manifests/B-2.json",
            ])
        // The descriptions of their chunks no longer hold either.
        let chunkProblems = found.filter { $0.hasPrefix("manifest-chunks/") }
        #expect(
            chunkProblems.count == 2 && chunkProblems[0] == "manifest-chunks/B-1.json.gz: names manifests/B-1.json.gz, which is missing")
        #expect(chunkProblems[1].hasPrefix("manifest-chunks/B-2.json.gz: "), "\(chunkProblems)")
    }

    @Test func findsAManifestThatDescribesAnotherVersionOrIsInvalid() throws {
        for suffix in ["", ".gz"] {
            try dir.write("cat/manifests/B-2.json" + suffix, dir.read("cat/manifests/B-1.json" + suffix))
        }
        #expect(try problems() == ["manifests/B-2.json: describes 'B' version 1, not 'B' version 2"])

        try dir.write("cat/manifests/B-1.json", #"{"extra": 1}"#)
        try dir.write("cat/manifests/B-1.json.gz", GzipCompressor.compress(Array(#"{"extra": 1}"#.utf8)))
        #expect(
            try problems() == [
                "manifests/B-1.json: not a valid Zinc file: unknown key 'extra'",
                "manifests/B-2.json: describes 'B' version 1, not 'B' version 2",
            ])
    }

    @Test func checksSharedObjectsOnce() throws {
        _ = try catalog.updateBundle("C", from: dir.at("src"))
        let report = try CatalogVerification(catalog).run()
        #expect(report == VerificationReport(problems: [], bundles: 2, versions: 3, objects: 4, archives: 3))
        let photo = try object("photos/85x85/kind.jpg")
        try FileManager.default.removeItem(atPath: dir.at("cat/" + photo.preferredPath))
        #expect(try problems() == ["\(photo.preferredPath): missing (manifests/B-1.json refers to it)"])
    }

    @Test func checksOnlyTheScopeAskedFor() throws {
        try dir.write("cat/index.json", "{}")
        #expect(
            try CatalogVerification(catalog, scope: .bundle("B")).run()
                == VerificationReport(problems: [], bundles: 1, versions: 2, objects: 4, archives: 2))
        #expect(
            try CatalogVerification(catalog, scope: .version(bundle: "B", .number(1))).run()
                == VerificationReport(problems: [], bundles: 1, versions: 1, objects: 3, archives: 1))
        #expect(try CatalogVerification(catalog, scope: .version(bundle: "B", .distro("master"))).run().objects == 4)
        #expect(throws: ZincError.bundleNotFound("X")) { try CatalogVerification(catalog, scope: .bundle("X")).run() }
        #expect(throws: ZincError.versionNotFound(bundle: "B", version: "9")) {
            try CatalogVerification(catalog, scope: .version(bundle: "B", .number(9))).run()
        }
    }

    @Test func acceptsTheAllFilesArchiveOfAFlavoredVersionPresentOrAbsentButChecksIt() throws {
        let spec = try Flavorspec.parse(Array(#"{"phone": ["- *.jpg", "+ *"], "tablet": ["+ *"]}"#.utf8), source: "spec")
        _ = try catalog.updateBundle("F", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec))
        _ = try catalog.updateBundle("G", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec, includeMasterArchive: true))
        #expect(!dir.exists("cat/archives/F-1.tar"))
        #expect(try CatalogVerification(catalog, scope: .bundle("F")).run().archives == 2)
        #expect(try CatalogVerification(catalog, scope: .bundle("G")).run().archives == 3)
        #expect(try problems().isEmpty)

        var dropped = ""
        try rewriteArchive("archives/G-1.tar") { dropped = $0.removeLast().name }
        try FileManager.default.removeItem(atPath: dir.at("cat/archives/F-1~phone.tar"))
        #expect(try problems() == ["archives/F-1~phone.tar: missing", "archives/G-1.tar: lacks member '\(dropped)'"])
    }

    @Test func reportsProgressOfObjectsThenArchives() throws {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var last = [MaintenanceProgress.Phase: MaintenanceProgress]()
        }
        let log = Log()
        _ = try CatalogVerification(catalog).run { progress in
            log.lock.withLock {
                if progress.completedItems > log.last[progress.phase]?.completedItems ?? 0 { log.last[progress.phase] = progress }
            }
        }
        let objects = try #require(log.last[.checkingObjects])
        let sizes = try catalog.manifest(bundle: "B", version: 2).objects().values.reduce(0) { $0 + $1.preferredSize }
        #expect(objects.completedItems == 4 && objects.totalItems == 4)
        #expect(objects.completedBytes == sizes && objects.totalBytes == sizes)
        let archives = try #require(log.last[.checkingArchives])
        #expect(archives.completedItems == 2 && archives.totalItems == 2)
        #expect(archives.totalBytes == Int64(try dir.read("cat/archives/B-1.tar").count + dir.read("cat/archives/B-2.tar").count))
    }
}
