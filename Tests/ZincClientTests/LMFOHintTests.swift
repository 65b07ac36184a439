import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A sync reads the LMFO record of the version it moves to as an unsigned hint of how
/// long the archive prefix holding its missing objects is. Version 2 changes two photos,
/// version 3 puts them back and changes two others: a repo at version 1 lacks version 3's
/// new photos and version 2's text, and the photos it has sit in front of the text.
@Suite struct LMFOHintTests {
    static func version1SyncedVersion3Published() throws -> ClientFixture {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        // Version 1's photos 1 and 4, as `ClientFixture` made them.
        for i in [1, 4] { try fixture.dir.write("src/photos/\(i).jpg", SampleContent.noise(3000 + 700 * i, seed: UInt64(i + 1))) }
        try fixture.dir.write("src/photos/2.jpg", SampleContent.noise(4500, seed: 302))
        try fixture.dir.write("src/photos/5.jpg", SampleContent.noise(6500, seed: 305))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
        return fixture
    }

    /// With the record, one range brings every missing object, and the plan said so.
    @Test func theRecordGivesThePrefixHoldingEveryMissingObject() throws {
        let fixture = try Self.version1SyncedVersion3Published()
        let engine = SyncEngine(repo: fixture.repo, options: fixture.options(.lmfo))
        let plan = try engine.plan()
        #expect(fixture.server.requests.contains { $0.path == "lmfo/B-3.json" })
        let report = try engine.sync(following: plan)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .updated, "\(fixture.failure(report))")
        #expect(bundle.missingObjects == 3 && bundle.fromArchive == 3 && bundle.individually == 0, "\(bundle.line)")
        // The plan counts the record, which the sync reads again, beside the one range.
        #expect(bundle.objectRequests == 1 && bundle.bytes == plan.bytes && bundle.objectBytes < plan.bytes, "\(bundle.line)")
        #expect(try fixture.bundleMatchesSource(3))
    }

    /// From the version just before, the missing objects are the archive's front by the
    /// format's rule: no record is asked for, and the prefix holds them all.
    @Test func anUpdateFromTheVersionJustBeforeReadsNoRecord() throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published()
        let report = try fixture.sync(.lmfo)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .updated && bundle.fromArchive == bundle.missingObjects, "\(bundle.line)")
        #expect(!fixture.server.requests.contains { $0.path.hasPrefix("lmfo/") })
        #expect(try fixture.bundleMatchesSource(2))
    }

    /// Without a record (a catalog another tool wrote), the prefix of the missing objects'
    /// length ends before the text, which comes by itself: slower, still right.
    @Test func withoutARecordTheObjectsThePrefixMissesComeOneByOne() throws {
        let fixture = try Self.version1SyncedVersion3Published()
        try FileManager.default.removeItem(atPath: fixture.dir.at("cat/lmfo/B-3.json"))
        let report = try fixture.sync(.lmfo)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .updated, "\(fixture.failure(report))")
        #expect(bundle.missingObjects == 3 && bundle.individually >= 1, "\(bundle.line)")
        #expect(try fixture.bundleMatchesSource(3))
    }

    /// Hostile records: not JSON, another version's, one lying about every `intro`, one
    /// larger than the limit, a deep nest. Each costs at most bytes: the files are right,
    /// and the sync takes the path it takes without a record.
    @Test(arguments: ["garbage", "version", "lies", "huge", "nest"])
    func aHostileRecordCostsBytesNeverAWrongFile(_ kind: String) throws {
        let fixture = try Self.version1SyncedVersion3Published()
        let real = try fixture.dir.read("cat/lmfo/B-3.json")
        let body: [UInt8]
        switch kind {
        case "garbage": body = Array("{\"version\": 3, \"scopes\": 7".utf8)
        case "version": body = try fixture.dir.read("cat/lmfo/B-2.json")
        case "lies":
            // Every object claimed as old: the prefix priced is the archive's tail's length.
            let record = try LMFORecord.parse(real, path: "B-3", version: 3)
            let shas = (record.scopes[""] ?? [:]).keys.map { "\"\($0.hex)\"" }.joined(separator: ",")
            body = Array(#"{"earlier_versions":[1,2],"scopes":{"":{"1":[\#(shas)]}},"version":3}"#.utf8)
        case "huge": body = Array(#"{"version": 3, "pad": ""#.utf8) + [UInt8](repeating: 0x61, count: 4_000_000) + Array(#""}"#.utf8)
        default: body = [UInt8](repeating: UInt8(ascii: "["), count: 50_000)
        }
        try fixture.dir.write("cat/lmfo/B-3.json", body)
        let report = try fixture.sync(.lmfo)
        let bundle = try #require(report.bundles.first)
        #expect(bundle.outcome == .updated, "\(fixture.failure(report))")
        #expect(bundle.fromArchive + bundle.individually == 3, "\(bundle.line)")
        #expect(try fixture.bundleMatchesSource(3))
    }

    /// The record's parse and checks, as a sync applies them: anything but a valid record
    /// of the version, with the scope asked for, is no order.
    @Test func theHintIsOnlyAValidRecordOfTheVersion() throws {
        let fixture = try Self.version1SyncedVersion3Published()
        let real = try fixture.dir.read("cat/lmfo/B-3.json")
        guard case .recorded(let intros) = LMFOHint.order(real, url: "u", version: 3, flavor: nil) else {
            Issue.record("the record was not read")
            return
        }
        #expect(intros.count == (try fixture.manifest(3).objects().count))
        #expect(LMFOHint.order(real, url: "u", version: 2, flavor: nil) == .unknown)
        #expect(LMFOHint.order(real, url: "u", version: 3, flavor: "small") == .unknown)
        #expect(LMFOHint.order(nil, url: "u", version: 3, flavor: nil) == .unknown)
        #expect(LMFOHint.order(Array(real.dropLast()), url: "u", version: 3, flavor: nil) == .unknown)
    }
}
