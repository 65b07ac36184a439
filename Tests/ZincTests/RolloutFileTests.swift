import Testing
import Zinc
import ZincTestSupport

/// The rollout file's text form: what a writer encodes reads back the same, signed or not,
/// and every file the format does not allow is refused with the reason and the path.
@Suite struct RolloutFileTests {
    static let path = "cat/rollouts/Game~master.rollout"

    static func sample(state: Rollout.State = .active) -> Rollout {
        Rollout(
            catalog: "com.example.app", bundle: "Game", distro: "master", serial: 1_795_562_549_704, signedAt: 1_795_562_549,
            expiresAt: 1_798_154_549, state: state, control: 4, candidate: 5, salt: Array(0..<16),
            steps: [
                Rollout.Step(time: 1_795_562_549, percentage: Percentage(basisPoints: 100)!),
                Rollout.Step(time: 1_795_648_949, percentage: Percentage(basisPoints: 2_050)!),
            ],
            pausedAt: state == .paused ? 1_795_600_000 : nil,
            conditions: RolloutConditions(
                appVersion: VersionRange(">=2.1,<3"), platforms: ["ios", "android"],
                only: [try! Attribute(key: "cohort", value: "beta testers")]),
            action: .start, actor: "alice", note: "first wave")
    }

    static let sampleText = """
        zinc-rollout 1
        catalog com.example.app
        bundle Game
        distro master
        serial 1795562549704
        signed 1795562549
        expires 1798154549
        state active
        control 4
        candidate 5
        salt 000102030405060708090a0b0c0d0e0f
        step 1795562549 1.00
        step 1795648949 20.50
        appversion >=2.1,<3
        platform ios
        platform android
        only cohort=beta testers
        action start
        actor alice
        note first wave

        """

    @Test func encodesTheDocumentedFormAndReadsItBack() throws {
        let bytes = RolloutFile.encode(Self.sample(), signedBy: nil)
        #expect(String(decoding: bytes, as: UTF8.self) == Self.sampleText)
        #expect(try RolloutFile.parse(bytes, path: Self.path) == Self.sample())
        var paused = Self.sample(state: .paused)
        paused.note = nil
        paused.conditions = RolloutConditions()
        #expect(try RolloutFile.parse(RolloutFile.encode(paused, signedBy: nil), path: Self.path) == paused)
    }

    @Test func aSignedFileVerifiesByItsKeyOnly() throws {
        let key = try SigningKey.generate()
        let bytes = RolloutFile.encode(Self.sample(), signedBy: key)
        var expected = Self.sample()
        expected.keyID = key.publicKey.id
        #expect(try RolloutFile.verified(bytes, path: Self.path, trusted: [key.publicKey]) == expected)
        #expect(try RolloutFile.parse(bytes, path: Self.path) == expected)

        let other = try SigningKey.generate()
        #expect(throws: ZincError.self) { try RolloutFile.verified(bytes, path: Self.path, trusted: [other.publicKey]) }
        // One changed digit of the percentage: the signature no longer matches.
        let tampered = Array(
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "step 1795562549 1.00", with: "step 1795562549 9.00").utf8)
        #expect(
            throws: ZincError.signature(
                path: Self.path, reason: "the signature by key \(key.publicKey.id) does not match the file's content (tampered)")
        ) {
            try RolloutFile.verified(tampered, path: Self.path, trusted: [key.publicKey])
        }
        #expect(throws: ZincError.signature(path: Self.path, reason: "the rollout file is unsigned, and the catalog is trusted with keys"))
        {
            try RolloutFile.verified(RolloutFile.encode(Self.sample(), signedBy: nil), path: Self.path, trusted: [key.publicKey])
        }
    }

    /// Each hostile or damaged variant of the sample, with the reason it is refused.
    static let refusals: [(old: String, new: String, reason: String)] = [
        ("state active", "state live", "unknown state 'live' (known: active, paused, halted, complete)"),
        ("candidate 5", "candidate 4", "its control and candidate are the same version, 4"),
        ("candidate 5", "candidate 2147483648", "'candidate' must be a number from 1 to 2147483647, not '2147483648'"),
        ("serial 1795562549704", "serial 9007199254740993", "'serial' must be a number from 1 to 9007199254740992, not '9007199254740993'"),
        ("expires 1798154549", "expires 1795562548", "expires before it was signed"),
        (
            "step 1795648949 20.50", "step 1795648949 0.50",
            "its steps must come in ascending time, their percentages never falling ('step 1795648949 0.50')"
        ),
        (
            "step 1795648949 20.50", "step 1795562549 20.50",
            "its steps must come in ascending time, their percentages never falling ('step 1795562549 20.50')"
        ),
        ("20.50", "100.01", "'step 1795648949 100.01' is not a time in seconds and a percentage with two decimals (such as 5.00)"),
        ("20.50", "20.5", "'step 1795648949 20.5' is not a time in seconds and a percentage with two decimals (such as 5.00)"),
        ("step 1795562549 1.00\nstep 1795648949 20.50\n", "", "has no step"),
        ("salt 000102030405060708090a0b0c0d0e0f", "salt 000102030405060708090A0B0C0D0E0F", "'salt' must be 32 lowercase hex digits"),
        ("state active", "state paused", "is paused without a 'paused' time"),
        ("appversion >=2.1,<3", "paused 1795600000", "has a 'paused' time but its state is active"),
        ("appversion >=2.1,<3", "appversion ~>2", "'appversion ~>2' is not a range such as >=2.1,<3"),
        ("only cohort=beta testers", "only cohort", "invalid attribute 'cohort': it must be KEY=VALUE"),
        ("bundle Game", "bundle .Game", "invalid bundle name '.Game': it must not start with '.'"),
        (
            "distro master", "distro _master",
            "invalid distribution name '_master': names starting with '_' are reserved for previous-distro pointers"
        ),
        ("action start\nactor alice\n", "actor alice\naction start\n", "expected the field 'action' here"),
        ("note first wave\n", "note first wave\ncolor blue\n", "has an unexpected field 'color'"),
        ("zinc-rollout 1", "zinc-rollout 2", "does not start with 'zinc-rollout 1'"),
        ("actor alice", "actor " + String(repeating: "a", count: 201), "its actor is longer than 200 bytes"),
        ("note first wave", "note first\u{7}wave", "holds control characters or invalid UTF-8"),
        ("note first wave\n", "note first wave", "does not end with a newline"),
        (
            "note first wave\n", "note " + String(repeating: "x", count: 65_536) + "\n",
            "larger than the 65536 bytes a rollout file may have"
        ),
    ]

    @Test(arguments: refusals.indices) func refusesWhatTheFormatDoesNotAllow(_ i: Int) {
        let (old, new, reason) = Self.refusals[i]
        #expect(Self.sampleText.contains(old))
        let bytes = Array(Self.sampleText.replacingOccurrences(of: old, with: new).utf8)
        #expect(throws: ZincError.corruptFile(path: Self.path, reason: reason)) { try RolloutFile.parse(bytes, path: Self.path) }
    }

    @Test func refusesMoreStepsThanTheLimit() {
        var rollout = Self.sample()
        rollout.steps = (0...RolloutFile.maxSteps).map { Rollout.Step(time: Int64(1_000 + $0), percentage: .zero) }
        #expect(throws: ZincError.corruptFile(path: Self.path, reason: "has more than 64 steps")) {
            try RolloutFile.parse(RolloutFile.encode(rollout, signedBy: nil), path: Self.path)
        }
    }

    @Test func namesItsFilesAfterTheBundleAndDistribution() {
        #expect(RolloutFile.path(bundle: "Game", distro: "master") == "rollouts/Game~master.rollout")
        #expect(RolloutFile.logPath(bundle: "Game", distro: "master", serial: 7) == "rollouts/log/Game~master/7.rollout")
    }
}
