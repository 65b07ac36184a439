import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A first launch from the seed an app ships: the bundle checked out with no request,
/// objects linked rather than copied, the seed checked as a catalog is, and the first
/// sync fetching only what the seed lacked.
@Suite struct SeedTests {
    /// Version 1 exported as a seed into `seed/`, and a fresh repo (not the fixture's) at `device/`.
    static func exported(signer: CatalogSigner? = nil) throws -> (ClientFixture, seed: String, repo: Repo) {
        let fixture = try ClientFixture()
        if let signer { _ = try CatalogSigning(fixture.catalog, signer: signer).run() }
        try SeedExport(fixture.catalog, bundle: "B", version: .number(1), to: fixture.dir.at("seed")).run()
        return (fixture, fixture.dir.at("seed"), try Repo.initialize(at: fixture.dir.at("device")))
    }

    static func folder(_ fixture: ClientFixture, _ version: Int) -> String {
        "device/bundles/\(ClientFixture.catalogID).B-\(version)"
    }

    static func matchesSource(_ fixture: ClientFixture, _ version: Int) throws -> Bool {
        let files = fixture.dir.files(under: "src")
        guard fixture.dir.files(under: folder(fixture, version)) == files else { return false }
        return try files.allSatisfy { try fixture.dir.read("src/" + $0) == fixture.dir.read(folder(fixture, version) + "/" + $0) }
    }

    @Test func aSeedChecksOutItsVersionWithNoRequestAndLinksItsFiles() throws {
        let (fixture, seed, repo) = try Self.exported()
        let requests = fixture.server.requests.count
        fixture.server.stop()  // the device is offline
        let result = try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url])
        #expect(result.switched && result.version == 1 && result.checkedOutVersion == 1)
        #expect(result.copiedObjects == 0 && result.copiedBytes == 0 && result.linkedObjects + result.clonedObjects > 0)
        #expect(!result.hashed)
        #expect(fixture.server.requests.count == requests)
        #expect(try Self.matchesSource(fixture, 1))
        // Linked: the object is the seed's file, and stays read-only.
        let sha = try #require(fixture.manifest(1).files["lessons/words.json"]?.sha)
        var object = stat()
        var shipped = stat()
        #expect(stat(fixture.dir.at("device/objects/" + sha), &object) == 0 && stat(seed + "/files/lessons/words.json", &shipped) == 0)
        #expect(object.st_ino == shipped.st_ino && object.st_mode & 0o222 == 0)
        #expect(try repo.status().first?.health?.isHealthy == true)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: repo.currentPath(catalog: ClientFixture.catalogID, bundle: "B"))
                == "../bundles/\(ClientFixture.catalogID).B-1")
    }

    /// An app awaits the seed as it awaits a sync, and a cancelled seed leaves the repo
    /// as it was, for the next launch to seed again.
    @Test func anAppAwaitsTheSeedAndCancellingItLeavesNothingCheckedOut() async throws {
        let (fixture, seed, repo) = try Self.exported()
        let url = fixture.server.url
        let cancelled = Task { try await repo.seed(from: seed, sources: [url]) }
        cancelled.cancel()
        await #expect(throws: SyncError.self) { try await cancelled.value }
        if case .failure(let error as SyncError) = await cancelled.result { #expect(error.code == .cancelled) }
        #expect(try await repo.status().allSatisfy { $0.localVersion == nil })

        let result = try await repo.seed(from: seed, sources: [fixture.server.url])
        #expect(result.switched && result.version == 1)
        #expect(try Self.matchesSource(fixture, 1))
    }

    @Test func theFirstSyncFetchesOnlyWhatTheSeedLacks() throws {
        let (fixture, seed, repo) = try Self.exported()
        try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url])
        let unchanged = try #require(try SyncEngine(repo: repo, options: fixture.options()).sync().bundles.first)
        #expect(unchanged.outcome == .upToDate && unchanged.objectRequests == 0, "\(unchanged.line)")

        try fixture.publishVersion2()
        let update = try #require(try SyncEngine(repo: repo, options: fixture.options(.objects)).sync().bundles.first)
        let old = try Set(fixture.manifest(1).objects().keys)
        let new = try fixture.manifest(2).objects().values.filter { !old.contains($0.sha) }
        #expect(update.outcome == .updated && update.missingObjects == new.count, "\(update.line)")
        #expect(update.objectBytes == new.reduce(0) { $0 + $1.preferredSize })
        #expect(try Self.matchesSource(fixture, 2))
    }

    /// An app update that ships an older seed than what was downloaded since changes nothing.
    @Test func anOlderSeedNeverReplacesNewerContent() throws {
        let (fixture, seed, repo) = try Self.exported()
        try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url])
        try fixture.publishVersion2()
        #expect(try SyncEngine(repo: repo, options: fixture.options()).sync().bundles.first?.version == 2)
        let again = try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url])
        #expect(!again.switched && again.checkedOutVersion == 2)
        #expect(try repo.loadState().bundles.first?.version == 2)
        #expect(try Self.matchesSource(fixture, 2))
    }

    /// A seed is a mode of the sync's run: an app update that ships a newer seed than the
    /// repo holds keeps the version it replaces as the spare folder, and a later seed
    /// brings that spare to its version by touching only the files that differ, as a
    /// sync's update does: the folder is moved, not built again. What the version that
    /// left used alone is collected by the run, as after a sync.
    @Test func aNewerSeedKeepsTheOlderVersionAsTheSpareAndBringsItAlong() throws {
        let fixture = try ClientFixture()
        try fixture.track()
        _ = try fixture.sync()
        try fixture.publishVersion2()
        try SeedExport(fixture.catalog, bundle: "B", version: .number(2), to: fixture.dir.at("seed-2")).run()
        let requests = fixture.server.requests.count
        let second = try SyncEngine(repo: fixture.repo).seed(from: fixture.dir.at("seed-2"), sources: [fixture.server.url])
        let added = try Set(fixture.manifest(2).objects().keys).subtracting(fixture.manifest(1).objects().keys)
        #expect(second.switched && second.checkedOutVersion == 2)
        #expect(second.linkedObjects + second.clonedObjects + second.copiedObjects == added.count)
        #expect(second.presentObjects == (try fixture.manifest(2).objects().count) - added.count)
        #expect(try fixture.bundleMatchesSource(2))
        #expect(try fixture.repo.loadState().bundles.first?.spareVersion == 1)
        var spare = stat()
        #expect(stat(fixture.dir.at(fixture.bundleFolder(1)), &spare) == 0)

        try fixture.dir.write("src/lessons/words.json", SampleContent.text(9500, word: "merci"))
        _ = try fixture.catalog.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(fixture.catalog, bundle: "B", distro: "master", to: .number(3)).run()
        try SeedExport(fixture.catalog, bundle: "B", version: .number(3), to: fixture.dir.at("seed-3")).run()
        let third = try SyncEngine(repo: fixture.repo).seed(from: fixture.dir.at("seed-3"), sources: [fixture.server.url])
        #expect(third.switched && third.checkedOutVersion == 3)
        #expect(third.linkedObjects + third.clonedObjects + third.copiedObjects == 1)
        #expect(try fixture.bundleMatchesSource(3))
        var built = stat()
        #expect(stat(fixture.dir.at(fixture.bundleFolder(3)), &built) == 0 && built.st_ino == spare.st_ino)
        #expect(try fixture.repo.loadState().bundles.first?.spareVersion == 2 && fixture.dir.exists(fixture.bundleFolder(2)))
        // The run's collection: version 1 left the repo, and the object only it used went with it.
        let replaced = try #require(try fixture.manifest(1).files["photos/1.jpg"]?.sha)
        #expect(!fixture.dir.exists("repo/objects/" + replaced) && !fixture.dir.exists(fixture.bundleFolder(1)))
        #expect(fixture.server.requests.count == requests)
        let next = try #require(try fixture.sync().bundles.first)
        #expect(next.outcome == .upToDate && next.objectRequests == 0, "\(next.line)")
    }

    @Test func aTamperedFileIsRefusedWhenHashed() throws {
        let (fixture, seed, repo) = try Self.exported()
        let file = seed + "/files/lessons/words.json"
        let size = try fixture.dir.read("seed/files/lessons/words.json").count
        #expect(chmod(file, 0o644) == 0)
        try Data(repeating: UInt8(ascii: "x"), count: size).write(to: URL(fileURLWithPath: file))
        #expect(throws: ClientError.self) { try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url], hashing: .always) }
        #expect(try repo.loadState().bundles.isEmpty || repo.loadState().bundles.first?.version == nil)
        #expect(fixture.dir.files(under: "device/bundles").isEmpty)
    }

    @Test func aSignedSeedIsCheckedAgainstTheTrustedKeys() throws {
        let key = try SigningKey.generate()
        let (fixture, seed, repo) = try Self.exported(signer: CatalogSigner(key: key))
        let stranger = try SigningKey.generate().publicKey
        #expect(throws: ClientError.self) {
            try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url], trustedKeys: [stranger])
        }
        #expect(fixture.dir.files(under: "device/bundles").isEmpty)

        let result = try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url], trustedKeys: [key.publicKey])
        #expect(result.switched && result.hashed)
        #expect(try Self.matchesSource(fixture, 1))
        // The signed seed's files are hashed: one changed is refused, keys or not asked.
        let other = try Repo.initialize(at: fixture.dir.at("other"))
        let file = seed + "/files/photos/0.jpg"
        #expect(chmod(file, 0o644) == 0)
        var bytes = try fixture.dir.read("seed/files/photos/0.jpg")
        bytes[0] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(throws: ClientError.self) {
            try SyncEngine(repo: other).seed(from: seed, sources: [fixture.server.url], trustedKeys: [key.publicKey])
        }
        // The first repo's object is a link to that file: status finds the damage, the next sync repairs it.
        #expect(try repo.status().first?.health?.damagedFiles == ["photos/0.jpg"])
        #expect(try SyncEngine(repo: repo, options: fixture.options()).sync().bundles.first?.outcome == .repaired)
        #expect(try Self.matchesSource(fixture, 1))
    }

    /// A seed's index is checked and kept as a sync's is, but for the expiry of its
    /// signature: an app ships its seed for months.
    @Test func aSeedsIndexIsKeptAsASyncKeepsOneThoughItsSignatureExpired() throws {
        let key = try SigningKey.generate()
        let (fixture, seed, repo) = try Self.exported(signer: CatalogSigner(key: key))
        let path = "seed/" + IndexSignature.path
        var signature = try IndexSignature.parseUnverified(fixture.dir.read(path), path: path)
        signature.signedAt -= 40 * 86_400
        signature.expiresAt = signature.signedAt + 30 * 86_400
        #expect(chmod(fixture.dir.at(path), 0o644) == 0)
        try fixture.dir.write(path, signature.encoded(signedBy: key))

        let result = try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url], trustedKeys: [key.publicKey])
        #expect(result.switched && result.hashed)
        #expect(try fixture.dir.read("device/catalogs/\(ClientFixture.catalogID).json.sig") == fixture.dir.read(path))
        let sources = try #require(try repo.loadState().catalogs[ClientFixture.catalogID])
        #expect(sources.indexSequence == signature.sequence && sources.etags.isEmpty && sources.signatureETags.isEmpty)
        // The catalog's own index, signed since, is what the next sync checks.
        let report = try SyncEngine(repo: repo, options: fixture.options()).sync()
        #expect(!report.failed && report.bundles.first?.outcome == .upToDate, "\(fixture.failure(report))")
    }

    @Test func aSeedOfAnotherCatalogOrAMissingDistroIsRefused() throws {
        let (fixture, seed, repo) = try Self.exported()
        #expect(throws: ZincError.self) { try SyncEngine(repo: repo).seed(from: seed, sources: [fixture.server.url], distro: "beta") }
        try fixture.dir.write("seed-copy/seed.json", "{\"format\":1,\"catalog\":\"com.other\",\"bundle\":\"B\",\"version\":1}")
        for entry in ["catalog.json.gz", "manifests", "files"] {
            try FileManager.default.copyItem(atPath: seed + "/" + entry, toPath: fixture.dir.at("seed-copy/" + entry))
        }
        #expect(throws: ClientError.self) {
            try SyncEngine(repo: repo).seed(from: fixture.dir.at("seed-copy"), sources: [fixture.server.url])
        }
        #expect(fixture.dir.files(under: "device/bundles").isEmpty)
    }
}
