import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A signed catalog synced through each transport: with its key trusted, the index and
/// manifest signatures verify (through whichever crypto backend the build has, which
/// `make portable-check` makes CryptoKit's API), and a repo trusting another key refuses
/// the catalog and checks nothing out.
@Suite struct SignedSyncTests {
    @Test(arguments: ClientTransport.allCases) func aSignedCatalogSyncsOnlyWithItsKeyTrusted(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture(transport: transport)
        let key = try SigningKey.generate()
        _ = try CatalogSigning(fixture.catalog, signer: CatalogSigner(key: key)).run()

        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        let report = try fixture.sync()
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(1))

        // A repo trusting another key is refused by `track` itself: nothing of the index
        // is kept, so `status` cannot show a version no trusted key vouched for.
        let stranger = try Repo.initialize(at: fixture.dir.at("stranger"))
        let otherKey = try SigningKey.generate().publicKey
        #expect {
            try stranger.track(url: fixture.server.url, bundle: "B", trustedKeys: [otherKey], options: fixture.options())
        } throws: { error in
            (error as? SyncError)?.code == .untrusted && "\(error)".contains("refused")
        }
        #expect(try stranger.status().isEmpty && stranger.loadState().catalogs.isEmpty)
        #expect(fixture.dir.files(under: "stranger/catalogs").isEmpty && fixture.dir.files(under: "stranger/bundles").isEmpty)

        // Version 2 published with a key the repo does not trust: `track` refuses the index,
        // and `status` still shows the version last checked.
        try fixture.dir.write("src/lessons/more.json", SampleContent.text(4000, word: "salut"))
        let rogue = try Catalog.open(FileStorage(root: fixture.dir.at("cat")), signer: CatalogSigner(key: SigningKey.generate()))
        _ = try rogue.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(rogue, bundle: "B", distro: "master", to: .number(2)).run()
        let kept = try fixture.dir.read("repo/catalogs/\(ClientFixture.catalogID).json")
        #expect {
            try fixture.repo.track(url: fixture.server.url, bundle: "B", options: fixture.options())
        } throws: { error in
            (error as? SyncError)?.code == .untrusted
        }
        #expect(try fixture.repo.status().map(\.remoteVersion) == [1])
        #expect(try fixture.dir.read("repo/catalogs/\(ClientFixture.catalogID).json") == kept)
    }

    /// `track` keeps a signed index as a sync does: the signature beside it and both
    /// validators, so the first sync asks for both with `If-None-Match` and, nothing
    /// changed, receives no body.
    @Test(arguments: ClientTransport.allCases) func trackKeepsASignedIndexAsASyncDoes(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture(transport: transport)
        let key = try SigningKey.generate()
        _ = try CatalogSigning(fixture.catalog, signer: CatalogSigner(key: key)).run()
        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        #expect(
            try fixture.dir.read("repo/catalogs/\(ClientFixture.catalogID).json.sig") == fixture.dir.read("cat/" + IndexSignature.path))

        let before = fixture.server.requests.count
        let report = try fixture.sync()
        #expect(!report.failed && report.catalogs.first?.notModified == true, "\(fixture.failure(report))")
        #expect(report.catalogs.first?.requests == 2 && report.catalogs.first?.bytes == 0)
        let asked = fixture.server.requests.dropFirst(before)
        for path in ["catalog.json.gz", IndexSignature.path] {
            let requests = asked.filter { $0.path == path }
            #expect(requests.count == 1 && requests.allSatisfy { $0.headers["if-none-match"] != nil }, "\(path)")
        }
        #expect(try fixture.bundleMatchesSource(1))
    }

    /// Keys given for a catalog that is not signed: refused at `track`, as a sync would.
    @Test func trackingAnUnsignedCatalogWithKeysIsRefused() throws {
        let fixture = try ClientFixture()
        let key = try SigningKey.generate().publicKey
        #expect {
            try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key], options: fixture.options())
        } throws: { error in
            "\(error)".contains("not signed")
        }
        #expect(try fixture.repo.status().isEmpty)
    }

    /// Nothing changed, almost nothing sent: the index and its signature are both asked
    /// for with `If-None-Match`, and the signature kept is checked again as if fetched.
    @Test(arguments: ClientTransport.allCases) func anUnchangedSignedCatalogCostsTwoConditionalRequests(_ transport: ClientTransport) throws
    {
        let fixture = try ClientFixture(transport: transport)
        let key = try SigningKey.generate()
        let signer = CatalogSigner(key: key)
        _ = try CatalogSigning(fixture.catalog, signer: signer).run()
        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        #expect(try !fixture.sync().failed)

        let again = try fixture.sync()
        let refresh = try #require(again.catalogs.first)
        #expect(!again.failed && refresh.notModified && again.bundles.first?.outcome == .upToDate, "\(fixture.failure(again))")
        #expect(refresh.requests == 2 && refresh.bytes < 2048, "\(refresh.requests) requests, \(refresh.bytes) bytes")
        // Beside the bundle's rollout file, which this catalog lacks (a 404 each time).
        #expect(
            fixture.server.requests.filter { !$0.path.hasPrefix("rollouts/") }.suffix(2).allSatisfy { $0.headers["if-none-match"] != nil })

        // A signature kept but damaged since is fetched again, not held against the catalog.
        let kept = "repo/catalogs/\(ClientFixture.catalogID).json.sig"
        try fixture.dir.write(kept, "damaged")
        let repaired = try fixture.sync()
        #expect(!repaired.failed && repaired.catalogs.first?.requests == 3, "\(fixture.failure(repaired))")
        #expect(try fixture.dir.read(kept) == fixture.dir.read("cat/" + IndexSignature.path))

        // A new signature of the same index (a re-sign) is fetched and checked.
        _ = try CatalogSigning(fixture.catalog, signer: signer).run()
        let resigned = try fixture.sync()
        #expect(!resigned.failed && resigned.catalogs.first?.requests == 2, "\(fixture.failure(resigned))")
        #expect(try fixture.dir.read(kept) == fixture.dir.read("cat/" + IndexSignature.path))
    }

    #if os(Linux)
    /// A manifest a plan kept is opened once by the sync that follows: parsed, and hashed
    /// for its signature, in one pass (it was read a second time for the hash).
    @Test func aKeptSignedManifestIsReadOnce() throws {
        let fixture = try ClientFixture()
        let key = try SigningKey.generate()
        let signed = try Catalog.open(FileStorage(root: fixture.dir.at("cat")), signer: CatalogSigner(key: key))
        _ = try CatalogSigning(signed, signer: CatalogSigner(key: key)).run()
        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        #expect(try !fixture.sync().failed)
        try fixture.dir.write("src/lessons/more.json", SampleContent.text(4000, word: "salut"))
        _ = try signed.updateBundle("B", from: fixture.dir.at("src"))
        try DistroUpdate(signed, bundle: "B", distro: "master", to: .number(2)).run()

        let plan = try SyncEngine(repo: fixture.repo, options: fixture.options()).plan()
        #expect(plan.bundles.first?.version == 2)
        let opens = try FileOpens(fixture.dir.at("repo/manifests/\(ClientFixture.catalogID)/B-2.json"))
        let report = try fixture.sync()
        #expect(!report.failed && report.bundles.first?.version == 2, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(2))
        #expect(opens.count == 1)
    }
    #endif
}
