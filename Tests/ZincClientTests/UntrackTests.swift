import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// `untrack` removes the bundle's folder and the objects no other bundle uses, and keeps
/// vouching for the objects it leaves: a stamp that matched its object before is taken
/// afresh after the removal (which changed the status-change time of the objects shared
/// with the other bundle), one that did not is kept as it was, never made to vouch.
@Suite struct UntrackTests {
    @Test func theObjectsLeftAreStampedAgainAndTheOthersRemoved() throws {
        let fixture = try ClientFixture()
        // Bundle C shares two photos with B and has a file of its own.
        for i in 0..<2 { try fixture.dir.write("c/photos/\(i).jpg", fixture.dir.read("src/photos/\(i).jpg")) }
        try fixture.dir.write("c/own.txt", SampleContent.text(5000, word: "adieu"))
        _ = try fixture.catalog.updateBundle("C", from: fixture.dir.at("c"))
        try DistroUpdate(fixture.catalog, bundle: "C", distro: "master", to: .number(1)).run()
        try fixture.track()
        try fixture.repo.track(url: fixture.server.url, bundle: "C", options: fixture.options())
        #expect(try fixture.sync().bundles.allSatisfy { $0.outcome == .updated })

        let own = try #require(SHA1.Digest(hex: SHA1.hash(fixture.dir.read("c/own.txt"))))
        let b = try fixture.manifest(1).files.values.map { try #require(SHA1.Digest(hex: $0.sha)) }
        let object = { (digest: SHA1.Digest) in fixture.dir.at("repo/objects/" + digest.hex) }
        // A stamp that no longer matches its object (one of B's): never stamped afresh.
        let stale = try #require(b.first { $0 != own })
        let recorded = ObjectStamp(size: 1, modified: 2, changed: 3, inode: 4)
        let before = ObjectStamps.load(from: fixture.repo).entries.filter { $0.0 != stale }
        #expect(before.contains { $0.0 == own })
        try ObjectStamps((before + [(stale, recorded)]).sorted { $0.0 < $1.0 }).save(in: fixture.repo)

        try fixture.repo.untrack(catalog: ClientFixture.catalogID, bundle: "C")

        #expect(access(object(own), F_OK) != 0)
        #expect(b.allSatisfy { access(object($0), F_OK) == 0 })
        let saved = Dictionary(uniqueKeysWithValues: Array(ObjectStamps.load(from: fixture.repo).entries))
        #expect(saved[own] == nil)
        #expect(saved[stale] == recorded)
        for digest in Set(b) where digest != stale {
            #expect(saved[digest] != nil && saved[digest] == ObjectStamp.of(object(digest)), "\(digest.hex)")
        }
        #expect(try fixture.repo.status().first?.health?.isHealthy == true)
    }
}
