import ArgumentParser
import Zinc

struct RolloutStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start a rollout of a version to a share of a distribution's installs.",
        discussion: """
            The distribution keeps pointing at its current version (the control). Installs \
            drawn by a new random salt, up to --percent (or each of --steps in turn, one \
            every --every), and meeting every condition, follow VERSION instead. The \
            candidate's archives are built first where the catalog keeps archives only for \
            versions in use.
            """
    )

    @OptionGroup var target: RolloutTarget

    @Option(help: "The candidate: a version number, 'latest' or @DISTRO.")
    var version: String

    @Option(help: "The share of installs that take the candidate, to two decimals (10, 2.5).")
    var percent: String?

    @Option(help: ArgumentHelp("Shares that follow each other, rising (1,5,20,50,100).", valueName: "percentages"))
    var steps: String?

    @Option(help: ArgumentHelp("Time between steps: a number and s, m, h or d (24h).", valueName: "interval"))
    var every: String?

    @Option(help: ArgumentHelp("Only installs whose app version is in this range (>=2.1,<3).", valueName: "range"))
    var appVersion: String?

    @Option(help: ArgumentHelp("Only installs of this platform (repeat for several).", valueName: "name"))
    var platform: [String] = []

    @Option(help: ArgumentHelp("Only installs with this attribute (repeat: all must hold).", valueName: "key=value"))
    var only: [String] = []

    @OptionGroup var change: RolloutChangeOptions

    @Flag(help: "Print the rollout as one JSON document (see 'zinc rollout status --json').")
    var json = false

    func validate() throws {
        switch (percent, steps, every) {
        case (_?, nil, nil), (nil, _?, _?): break
        case (nil, _?, nil): throw ValidationError("--steps needs --every")
        case (nil, nil, _?): throw ValidationError("--every goes with --steps")
        default: throw ValidationError("give --percent, or --steps with --every")
        }
    }

    func run() throws {
        let schedule: RolloutUpdate.Schedule
        if let percent {
            schedule = .percentage(try Self.percentage(percent, option: "--percent"))
        } else {
            let shares = try steps!.split(separator: ",", omittingEmptySubsequences: false).map {
                try Self.percentage(String($0), option: "--steps")
            }
            schedule = .steps(shares, every: try Self.seconds(every!))
        }
        var conditions = RolloutConditions()
        if let appVersion {
            guard let range = VersionRange(appVersion) else {
                throw ValidationError(
                    "--app-version '\(appVersion)' is not a range such as '>=2.1,<3' (comparisons >=, >, <=, <, = and versions of 1 to 4 numbers)"
                )
            }
            conditions.appVersion = range
        }
        for name in platform { try Attribute.validateValue(name, kind: "platform") }
        conditions.platforms = platform
        conditions.only = try only.map { try Attribute(parsing: $0) }
        guard conditions.platforms.count <= RolloutConditions.maxEach, conditions.only.count <= RolloutConditions.maxEach else {
            throw ValidationError("at most \(RolloutConditions.maxEach) --platform and \(RolloutConditions.maxEach) --only")
        }
        let catalog = try target.catalog.reference.open()
        let spec = try VersionSpec(version, of: target.bundle, in: catalog)
        try change.run(.start(candidate: spec, schedule: schedule, conditions: conditions), on: target, json: json)
    }

    static func percentage(_ text: String, option: String) throws -> Percentage {
        guard let value = Percentage(parsing: text) else {
            throw ValidationError("\(option): '\(text)' is not a percentage from 0 to 100 with at most two decimals")
        }
        return value
    }

    /// `30s`, `15m`, `24h`, `7d` in seconds.
    static func seconds(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(checkedDigits: text.dropLast()), count > 0,
            case (let seconds, let overflow) = count.multipliedReportingOverflow(by: unit), !overflow,
            seconds <= 3_650 * 86_400
        else {
            throw ValidationError("--every: '\(text)' is not a positive interval of at most 3650 days, such as 30m, 24h or 7d")
        }
        return seconds
    }
}

extension Int64 {
    /// Decimal digits only, no sign: what a person types as a count.
    init?(checkedDigits text: Substring) {
        guard (1...18).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(text) else { return nil }
        self = value
    }
}
