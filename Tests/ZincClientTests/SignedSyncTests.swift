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
        _ = try fixture.catalog.signAll(with: CatalogSigner(key: key))

        try fixture.repo.track(url: fixture.server.url, bundle: "B", trustedKeys: [key.publicKey], options: fixture.options())
        let report = try fixture.sync()
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(try fixture.bundleMatchesSource(1))

        let stranger = try Repo.initialize(at: fixture.dir.at("stranger"))
        let otherKey = try SigningKey.generate().publicKey
        try stranger.track(url: fixture.server.url, bundle: "B", trustedKeys: [otherKey], options: fixture.options())
        let refused = try SyncEngine(repo: stranger, options: fixture.options()).sync()
        #expect(refused.failed)
        #expect(fixture.failure(refused).contains("refused"), "\(fixture.failure(refused))")
        #expect(fixture.dir.files(under: "stranger/bundles").isEmpty)
    }
}
