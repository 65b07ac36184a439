import Testing
import Zinc
import ZincClient

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
            (error as? ClientError)?.code == .untrusted && "\(error)".contains("refused")
        }
        #expect(try stranger.status().isEmpty && stranger.loadState().catalogs.isEmpty)
        #expect(fixture.dir.files(under: "stranger/catalogs").isEmpty && fixture.dir.files(under: "stranger/bundles").isEmpty)
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
        #expect(fixture.server.requests.suffix(2).allSatisfy { $0.headers["if-none-match"] != nil })

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
}
