import Zinc

/// `update_bundle`'s figures for a release engineer (see `VersionGrowth`): what the new
/// version adds to storage and what a player on the version before downloads, as lines
/// of text and as the `"storage"` and `"update"` members of its JSON.
struct GrowthReport: Encodable {
    let growth: VersionGrowth
    /// The catalog keeps archives for every version (see `ArchivePolicy`).
    let keepsEveryArchive: Bool
    /// A preview's figures are bounds: objects are counted before compression.
    let isPreview: Bool

    /// Two lines, the second only when the bundle had a version before.
    var lines: [String] {
        let objects =
            "\(HumanFormat.count(growth.newObjects)) new object\(growth.newObjects == 1 ? "" : "s") "
            + HumanFormat.bytes(growth.objectBytes) + (isPreview ? " before compression" : "")
        let archives =
            growth.archiveBytes > 0
            ? "archives \(HumanFormat.bytes(growth.archiveBytes))"
            : keepsEveryArchive ? "no archive (one file)" : "no archive until a distribution names the version"
        let parts = [
            objects, "manifest \(HumanFormat.bytes(growth.manifestBytes))", "chunk list \(HumanFormat.bytes(growth.chunkListBytes))",
            "records \(HumanFormat.bytes(growth.recordBytes))", archives,
        ]
        var lines = [
            (isPreview ? "Would add to storage at most " : "Added to storage: ") + HumanFormat.bytes(growth.totalBytes) + " ("
                + parts.joined(separator: ", ") + ")"
        ]
        if let update = growth.update {
            let download = update.download
            lines.append(
                "A player on version \(update.from) \(isPreview ? "would download at most" : "downloads") "
                    + "\(HumanFormat.bytes(download.bytes)) in \(HumanFormat.count(download.requests)) "
                    + "request\(download.requests == 1 ? "" : "s") (\(update.plan.strategy.rawValue))")
        }
        return lines
    }

    private enum CodingKeys: CodingKey { case storage, update }

    private enum StorageKeys: CodingKey {
        case objects, objectBytes, manifestBytes, chunkListBytes, recordBytes, archiveBytes, totalBytes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var storage = container.nestedContainer(keyedBy: StorageKeys.self, forKey: .storage)
        try storage.encode(growth.newObjects, forKey: .objects)
        try storage.encode(growth.objectBytes, forKey: .objectBytes)
        try storage.encode(growth.manifestBytes, forKey: .manifestBytes)
        try storage.encode(growth.chunkListBytes, forKey: .chunkListBytes)
        try storage.encode(growth.recordBytes, forKey: .recordBytes)
        try storage.encode(growth.archiveBytes, forKey: .archiveBytes)
        try storage.encode(growth.totalBytes, forKey: .totalBytes)
        try container.encode(growth.update.map(UpdateReport.init), forKey: .update)
    }
}

/// `{"from", "requests", "bytes", "strategy"}`: what a client on `from` downloads to
/// update, as `list --sizes --json` and `update_bundle --json` give it.
struct UpdateReport: Encodable {
    let diff: VersionDiff

    private enum CodingKeys: CodingKey { case from, requests, bytes, strategy }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diff.from, forKey: .from)
        try container.encode(diff.download.requests, forKey: .requests)
        try container.encode(diff.download.bytes, forKey: .bytes)
        try container.encode(diff.plan.strategy.rawValue, forKey: .strategy)
    }
}
