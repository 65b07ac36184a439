/// The text form of a rollout, `rollouts/B~D.rollout` (FORMAT.md, "Rollouts"), and its log
/// copies: fields in a fixed order in the line form signature files use, signed in a
/// signed catalog. Parsing is strict and bounded: the file comes from a server, and a
/// client that cannot trust it moves nobody.
public enum RolloutFile {
    public static let magic = "zinc-rollout 1"
    public static let sizeLimit = 65_536
    public static let folder = "rollouts"
    public static let logFolder = "rollouts/log"
    /// Of steps; far more than a ramp needs.
    public static let maxSteps = 64
    public static let maxActorBytes = 200
    public static let maxNoteBytes = 1_000
    /// How long a rollout file is valid after it is written, unless told otherwise.
    public static let defaultLifetime: Int64 = 30 * 86_400
    static let serialRange: ClosedRange<Int64> = 1...(1 << 53)

    /// Where the rollout of `bundle`'s distribution `distro` lives.
    public static func path(bundle: String, distro: String) -> String { "\(folder)/\(bundle)~\(distro).rollout" }

    /// The folder of the log copies of that file.
    public static func logPath(bundle: String, distro: String) -> String { "\(logFolder)/\(bundle)~\(distro)" }

    /// The log copy of the file's state at `serial`.
    public static func logPath(bundle: String, distro: String, serial: Int64) -> String {
        "\(logPath(bundle: bundle, distro: distro))/\(serial).rollout"
    }

    /// The rollout files `storage` holds (not their log copies), in name order.
    static func list(in storage: CatalogStorage) throws -> [String] {
        try storage.list(folder).filter { $0.hasSuffix(".rollout") && !$0.hasPrefix(logFolder + "/") }.sorted()
    }

    /// Refuses `rollout`, read from `file` (`path` when named in an error), unless it
    /// describes that file's own bundle and distribution in catalog `catalogID`: a file
    /// copied to another place or catalog would steer installs it was never written for.
    public static func checkPlace(of rollout: Rollout, file: String, catalogID: String, path: String) throws {
        guard file == Self.path(bundle: rollout.bundle, distro: rollout.distro), rollout.catalog == catalogID else {
            throw ZincError.corruptFile(
                path: path,
                reason: "it describes distribution '\(rollout.distro)' of '\(rollout.bundle)' in catalog '\(rollout.catalog)'")
        }
    }

    /// The file's bytes, signed with `key` when there is one.
    public static func encode(_ rollout: Rollout, signedBy key: SigningKey?) -> [UInt8] {
        var fields: [(String, String)] = [
            ("catalog", rollout.catalog), ("bundle", rollout.bundle), ("distro", rollout.distro),
            ("serial", "\(rollout.serial)"), ("signed", "\(rollout.signedAt)"), ("expires", "\(rollout.expiresAt)"),
            ("state", rollout.state.rawValue), ("control", "\(rollout.control)"),
            ("candidate", "\(rollout.candidate)"), ("salt", Hex.encode(rollout.salt)),
        ]
        fields += rollout.steps.map { ("step", "\($0.time) \($0.percentage)") }
        if let pausedAt = rollout.pausedAt { fields.append(("paused", "\(pausedAt)")) }
        if let range = rollout.conditions.appVersion { fields.append(("appversion", range.description)) }
        fields += rollout.conditions.platforms.map { ("platform", $0) }
        fields += rollout.conditions.only.map { ("only", $0.description) }
        fields += [("action", rollout.action.rawValue), ("actor", rollout.actor)]
        if let note = rollout.note { fields.append(("note", note)) }
        return FieldLines.encode(magic: magic, fields: fields, key: key)
    }

    /// The rollout in `bytes`, read from `path`, with the key that signed it (unchecked:
    /// see `verified`); throws a corrupt-file error naming `path` for anything the format
    /// does not allow.
    public static func parse(_ bytes: [UInt8], path: String) throws -> Rollout {
        try parseSigned(bytes, path: path).rollout
    }

    /// The rollout in `bytes`, and the key among `trusted` that signed it; throws when it
    /// is unsigned or none of them did.
    public static func verified(_ bytes: [UInt8], path: String, trusted: [PublicKey]) throws -> Rollout {
        let (rollout, signature) = try parseSigned(bytes, path: path)
        guard let signature else {
            throw ZincError.signature(path: path, reason: "the rollout file is unsigned, and the catalog is trusted with keys")
        }
        _ = try signature.verified(by: trusted, path: path)
        return rollout
    }

    private static func parseSigned(_ bytes: [UInt8], path: String) throws -> (rollout: Rollout, signature: SignatureFile?) {
        func bad(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        let lines = try FieldLines(bytes, magic: magic, limit: sizeLimit, what: "a rollout file", bad: bad)
        let trailer = try lines.signature(bad: bad)
        var fields = SignatureFields(
            Array(lines.fields.dropLast(trailer == nil ? 0 : 2)), path: path,
            failure: { .corruptFile(path: $0, reason: $1) })
        let catalog = try fields.text("catalog")
        let bundle = try fields.text("bundle")
        let distro = try fields.text("distro")
        try Names.checked(in: path) {
            try Names.validateCatalogID(catalog)
            try Names.validateBundleName(bundle)
            try Names.validateDistroName(distro)
        }
        let serial = try fields.number("serial", in: serialRange)
        let signedAt = try fields.number("signed", in: IndexSignature.timeRange)
        let expiresAt = try fields.number("expires", in: IndexSignature.timeRange)
        guard expiresAt >= signedAt else { throw bad("expires before it was signed") }
        let stateText = try fields.text("state")
        guard let state = Rollout.State(rawValue: stateText) else {
            throw bad("unknown state '\(stateText.prefix(40))' (known: \(Rollout.State.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let versions = 1...Int64(Int32.max)
        let control = Int(try fields.number("control", in: versions))
        let candidate = Int(try fields.number("candidate", in: versions))
        guard control != candidate else { throw bad("its control and candidate are the same version, \(control)") }
        guard let salt = Hex.decode(try fields.text("salt"), count: 16) else { throw bad("'salt' must be 32 lowercase hex digits") }
        var steps = [Rollout.Step]()
        while fields.peek == "step" {
            let text = try fields.text("step")
            let parts = text.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, let time = Int64(checkedDecimal: parts[0]), IndexSignature.timeRange.contains(time),
                let percentage = Percentage(fileText: parts[1])
            else {
                throw bad("'step \(text.prefix(60))' is not a time in seconds and a percentage with two decimals (such as 5.00)")
            }
            if let last = steps.last, time <= last.time || percentage < last.percentage {
                throw bad("its steps must come in ascending time, their percentages never falling ('step \(text)')")
            }
            steps.append(Rollout.Step(time: time, percentage: percentage))
            guard steps.count <= maxSteps else { throw bad("has more than \(maxSteps) steps") }
        }
        guard !steps.isEmpty else { throw bad("has no step") }
        var pausedAt: Int64?
        if fields.peek == "paused" { pausedAt = try fields.number("paused", in: IndexSignature.timeRange) }
        guard (pausedAt != nil) == (state == .paused) else {
            throw bad(state == .paused ? "is paused without a 'paused' time" : "has a 'paused' time but its state is \(state)")
        }
        var conditions = RolloutConditions()
        if fields.peek == "appversion" {
            let text = try fields.text("appversion")
            guard let range = VersionRange(text) else {
                throw bad("'appversion \(text.prefix(60))' is not a range such as >=2.1,<3")
            }
            conditions.appVersion = range
        }
        while fields.peek == "platform" {
            let platform = try fields.text("platform")
            try Names.checked(in: path) { try Attribute.validateValue(platform, kind: "platform") }
            conditions.platforms.append(platform)
            guard conditions.platforms.count <= RolloutConditions.maxEach else {
                throw bad("names more than \(RolloutConditions.maxEach) platforms")
            }
        }
        while fields.peek == "only" {
            let text = try fields.text("only")
            try Names.checked(in: path) { conditions.only.append(try Attribute(parsing: text)) }
            guard conditions.only.count <= RolloutConditions.maxEach else {
                throw bad("has more than \(RolloutConditions.maxEach) 'only' conditions")
            }
        }
        let actionText = try fields.text("action")
        guard let action = Rollout.Action(rawValue: actionText) else {
            throw bad("unknown action '\(actionText.prefix(40))'")
        }
        let actor = try fields.text("actor")
        guard actor.utf8.count <= maxActorBytes else { throw bad("its actor is longer than \(maxActorBytes) bytes") }
        var note: String?
        if fields.peek == "note" {
            let text = try fields.text("note")
            guard text.utf8.count <= maxNoteBytes else { throw bad("its note is longer than \(maxNoteBytes) bytes") }
            note = text
        }
        try fields.end()
        var rollout = Rollout(
            catalog: catalog, bundle: bundle, distro: distro, serial: serial, signedAt: signedAt, expiresAt: expiresAt,
            state: state, control: control, candidate: candidate, salt: salt, steps: steps, pausedAt: pausedAt,
            conditions: conditions, action: action, actor: actor, note: note)
        rollout.keyID = trailer?.keyID
        let signature = trailer.map {
            SignatureFile(kind: "rollout", fields: [], keyID: $0.keyID, signature: $0.signature, signed: $0.signed)
        }
        return (rollout, signature)
    }
}
