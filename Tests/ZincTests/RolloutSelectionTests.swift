import Testing
import Zinc

/// Who takes a rollout's candidate: the slot every client computes alike, the share at a
/// time, the conditions, and the reason `status` gives.
@Suite struct RolloutSelectionTests {
    static let salt: [UInt8] = Array(0..<16)

    @Test func theSlotIsTheDocumentedHash() {
        // python3: int.from_bytes(sha256(id + b'\0' + bytes(range(16))).digest()[:8], 'big') % 10000
        #expect(RolloutSelection.slot(of: "install-1", salt: Self.salt) == 9418)
        #expect(RolloutSelection.slot(of: "abc", salt: Self.salt) == 9499)
        #expect(RolloutSelection.slot(of: String(repeating: "a", count: 128), salt: Self.salt) == 8494)
    }

    static func rollout(_ state: Rollout.State = .active, percent: Int = 50, conditions: RolloutConditions = RolloutConditions()) -> Rollout
    {
        Rollout(
            catalog: "c", bundle: "B", distro: "master", serial: 1, signedAt: 100, expiresAt: 1_000, state: state, control: 1,
            candidate: 2, salt: salt,
            steps: [
                Rollout.Step(time: 100, percentage: Percentage(basisPoints: percent * 100)!),
                Rollout.Step(time: 200, percentage: .all),
            ],
            pausedAt: state == .paused ? 150 : nil, conditions: conditions, action: .start, actor: "a")
    }

    @Test func followsTheStepWhoseTimeHasComeAndStopsWhilePaused() {
        let rollout = Self.rollout()
        #expect(rollout.percentage(at: 99) == .zero)
        #expect(rollout.percentage(at: 100).description == "50.00")
        #expect(rollout.percentage(at: 250) == .all)
        #expect(Self.rollout(.paused).percentage(at: 250).description == "50.00")
    }

    @Test func choosesByStateSlotAndConditions() throws {
        let drawn = try InstallIdentity(id: "abc")  // slot 9499
        let pointer = 1
        #expect(
            RolloutSelection.choose(for: drawn, rollout: nil, pointer: pointer, at: 150) == RolloutChoice(version: 1, reason: .noRollout))
        #expect(
            RolloutSelection.choose(for: drawn, rollout: Self.rollout(), pointer: pointer, at: 150)
                == RolloutChoice(version: 1, reason: .notDrawn(slot: 9499, percentage: Percentage(basisPoints: 5_000)!)))
        #expect(
            RolloutSelection.choose(for: drawn, rollout: Self.rollout(), pointer: pointer, at: 250)
                == RolloutChoice(version: 2, reason: .drawn(slot: 9499, percentage: .all)))
        #expect(RolloutSelection.choose(for: drawn, rollout: Self.rollout(.halted), pointer: pointer, at: 250).reason == .halted)
        #expect(
            RolloutSelection.choose(for: drawn, rollout: Self.rollout(.complete), pointer: 2, at: 250)
                == RolloutChoice(version: 2, reason: .completed))
        #expect(
            RolloutSelection.choose(for: drawn, rollout: Self.rollout(), pointer: 3, at: 250)
                == RolloutChoice(version: 3, reason: .pointerMoved(control: 1)))

        let limited = Self.rollout(
            percent: 100,
            conditions: RolloutConditions(
                appVersion: VersionRange(">=2.1,<3"), platforms: ["ios"], only: [try Attribute(key: "cohort", value: "qa")]))
        let matching = try InstallIdentity(
            id: "abc",
            attributes: [
                try Attribute(parsing: "app-version=2.4.1"), try Attribute(parsing: "platform=ios"), try Attribute(parsing: "cohort=qa"),
            ])
        #expect(RolloutSelection.choose(for: matching, rollout: limited, pointer: pointer, at: 150).version == 2)
        #expect(
            RolloutSelection.choose(
                for: matching.with([try Attribute(parsing: "app-version=3.0")]), rollout: limited, pointer: pointer, at: 150)
                == RolloutChoice(version: 1, reason: .conditionUnmet("app version 3.0 is outside >=2.1,<3")))
        #expect(
            RolloutSelection.choose(
                for: matching.with([try Attribute(parsing: "platform=android")]), rollout: limited, pointer: pointer, at: 150)
                == RolloutChoice(version: 1, reason: .conditionUnmet("platform android is not ios")))
        #expect(
            RolloutSelection.choose(for: drawn, rollout: limited, pointer: pointer, at: 150)
                == RolloutChoice(
                    version: 1,
                    reason: .conditionUnmet("the rollout is limited to app versions >=2.1,<3, and the install gives no 'app-version'")))
    }

    @Test func raisingTheShareMovesNoInstallOut() throws {
        let ids = (0..<2_000).map { "install-\($0)" }
        var previous = Set<String>()
        for percent in [1, 5, 20, 50, 100] {
            let rollout = Self.rollout(percent: percent)
            let inside = Set(
                try ids.filter {
                    RolloutSelection.choose(for: try InstallIdentity(id: $0), rollout: rollout, pointer: 1, at: 150).version == 2
                })
            #expect(previous.isSubset(of: inside))
            previous = inside
        }
        #expect(previous.count == ids.count)
    }

    @Test func readsPercentagesAndVersionRangesAsPeopleWriteThem() {
        #expect(Percentage(parsing: "10")?.basisPoints == 1_000)
        #expect(Percentage(parsing: "2.5")?.basisPoints == 250)
        #expect(Percentage(parsing: "0.25")?.basisPoints == 25)
        #expect(Percentage(parsing: "100")?.description == "100.00")
        for bad in ["", "-1", "100.01", "1.234", "1.", ".5", "1e2", "٣"] { #expect(Percentage(parsing: bad) == nil, "\(bad)") }

        let range = VersionRange(">=2.1,<3")!
        #expect(range.contains(VersionRange.AppVersion("2.1")!))
        #expect(range.contains(VersionRange.AppVersion("2.10.3.4")!))
        #expect(!range.contains(VersionRange.AppVersion("3")!))
        #expect(!range.contains(VersionRange.AppVersion("2.0.9")!))
        #expect(VersionRange("=1.2")!.contains(VersionRange.AppVersion("1.2.0.0")!))
        for bad in ["", "2.1", ">=", ">=1.2.3.4.5", ">=1..2", "=>1", ">=1,", ">=1;<2"] { #expect(VersionRange(bad) == nil, "\(bad)") }
    }

    @Test func refusesInstallIdsAndAttributesNoFileCouldHold() {
        #expect(throws: ZincError.self) { try InstallIdentity(id: "") }
        #expect(throws: ZincError.self) { try InstallIdentity(id: String(repeating: "x", count: 129)) }
        #expect(throws: ZincError.self) { try InstallIdentity(id: "a\nb") }
        #expect(throws: ZincError.self) { try Attribute(parsing: "=value") }
        #expect(throws: ZincError.self) { try Attribute(parsing: "key=") }
        #expect(throws: ZincError.self) { try Attribute(parsing: "k y=v") }
        #expect(InstallIdentity.randomID().count == 32)
    }
}
