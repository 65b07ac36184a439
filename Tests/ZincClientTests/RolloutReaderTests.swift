import Testing
import Zinc
import ZincTestSupport

@testable import ZincClient

/// How the client judges a kept rollout file by the device's clock and its trusted keys:
/// what no served catalog can show without waiting for a file to expire.
@Suite struct RolloutReaderTests {
    let dir: TemporaryDirectory
    let repo: Repo
    let key: SigningKey
    let tracked = RepoState.TrackedBundle(catalog: "com.example.app", bundle: "Game", distro: "master", version: 5)
    let entry = CatalogIndex.BundleEntry(versions: [4, 5], distributions: ["master": 4], nextVersion: 6)
    let install: InstallIdentity

    static let signed: Int64 = 1_795_562_549
    static let expires: Int64 = 1_798_154_549

    init() throws {
        dir = try TemporaryDirectory()
        repo = try Repo.initialize(at: dir.at("repo"))
        key = try SigningKey.generate()
        install = try InstallIdentity(id: "player-1")
    }

    /// A rollout of 5 over 4 at 100 %, signed with `key`, kept as if the last sync accepted it.
    func keep(signedBy signer: SigningKey?) throws {
        let rollout = Rollout(
            catalog: "com.example.app", bundle: "Game", distro: "master", serial: 7, signedAt: Self.signed,
            expiresAt: Self.expires, state: .active, control: 4, candidate: 5, salt: Array(0..<16),
            steps: [Rollout.Step(time: Self.signed, percentage: Percentage(basisPoints: 10_000)!)], action: .start, actor: "alice")
        let file = repo.rolloutFile("com.example.app", bundle: "Game", distro: "master")
        try dir.write(String(file.dropFirst(dir.path.count + 1)), RolloutFile.encode(rollout, signedBy: signer))
    }

    func choice(now: Int64, keys: [PublicKey], held: Int? = 5, serial: Int64? = nil) throws -> RolloutChoice {
        var tracked = tracked
        tracked.rolloutSerial = serial
        let reader = RolloutReader(repo: repo, keys: keys, now: now)
        return reader.choice(try reader.kept(tracked, entry: entry), held: held, pointer: 4, install: install)
    }

    @Test func anExpiredFileMovesNobodyWhereKeysAreTrusted() throws {
        try keep(signedBy: key)
        #expect(try choice(now: Self.expires - 1, keys: [key.publicKey]).version == 5)
        let expired = try choice(now: Self.expires, keys: [key.publicKey], held: 4)
        #expect(expired.version == 4)
        #expect(expired.reason.code == "untrusted")
        #expect(expired.explanation.hasSuffix("expired at 1798154549, before this device's clock)"))
        // A new install takes the pointer's version.
        #expect(try choice(now: Self.expires, keys: [key.publicKey], held: nil).version == 4)
        // Without keys the expiry is not the client's to enforce.
        #expect(try choice(now: Self.expires + 86_400, keys: []).reason.code == "drawn")
    }

    @Test func anOlderSerialOrAnotherKeyIsRefused() throws {
        try keep(signedBy: key)
        let older = try choice(now: Self.signed, keys: [key.publicKey], held: 4, serial: 8)
        #expect(older.version == 4 && older.explanation.hasSuffix("has serial 7, older than the 8 accepted before)"))
        let other = try SigningKey.generate()
        #expect(try choice(now: Self.signed, keys: [other.publicKey], held: 4).reason.code == "untrusted")
        try keep(signedBy: nil)
        #expect(try choice(now: Self.signed, keys: [key.publicKey], held: 4).explanation.contains("unsigned"))
        #expect(try choice(now: Self.signed, keys: []).version == 5)
    }
}
