/// When files left the index, so that `clean` removes nothing a client may still be
/// sent to. A client (or a CDN in front of the catalog) may hold a copy of the index
/// for its cache lifetime (`max-age=300`); every manifest, archive and object that copy
/// lists must stay that long after the index stopped listing it.
///
/// Each record is `retired/<ms>-<random>.json`, `{"time": MS, "files": [...]}`: the
/// files, and when they were found to be listed no more (milliseconds since 1970).
/// `delete_bundle` writes one for the manifests and archives it takes out of the index;
/// `clean` writes one for unreferenced files it finds without a record (objects of
/// deleted versions, leftovers of killed imports); `publish` writes one at its
/// destination for the version files its index swap dropped there. An import stopped by
/// an interrupt writes one with `"never_listed": true` for the files it wrote and never
/// committed: no index listed them, and `clean` says so. Records are only ever created
/// and deleted, never changed, so writers on many machines need no lock to add them. Old
/// clients and tools never look in `retired/` (and older versions of this tool ignore
/// `never_listed`, taking the time as the time the files left the index: the same wait).
struct RetirementRecords {
    static let folder = "retired"

    let storage: CatalogStorage

    struct Record {
        let path: String
        let time: Int64
        let files: [String]
        /// Written by an interrupted import for files no index ever listed.
        let neverListed: Bool
    }

    /// Records that `files` left the index now, or (`neverListed`) that an interrupted
    /// import wrote them and no index ever listed them.
    func record(_ files: [String], at time: Int64 = WallClock.nowMilliseconds(), neverListed: Bool = false) throws {
        guard !files.isEmpty else { return }
        var fields: [String: JSONValue] = ["time": .int(time), "files": .array(files.map { .string($0) })]
        if neverListed { fields["never_listed"] = .bool(true) }
        let body = JSONValue.object(fields)
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        _ = try storage.write(body.encoded(), to: "\(Self.folder)/\(time)-\(random).json", .ifAbsent)
    }

    /// A record is written by a writer of this catalog, perhaps on another machine or as
    /// a publish's destination: its time may run ahead of this clock by a skew, no more.
    static let largestClockSkew: Int64 = 24 * 3600 * 1000

    /// Every readable record, and the paths of the unreadable ones (garbage themselves).
    /// A record whose time is before 1970 or after a day from `now` is unreadable: taken
    /// at its word it would let files go at once, or keep them for ever.
    func load(now: Int64 = WallClock.nowMilliseconds()) throws -> (records: [Record], damaged: [String]) {
        var records = [Record]()
        var damaged = [String]()
        for path in try storage.list(Self.folder) {
            guard let bytes = try storage.read(path),
                let object = (try? JSONValue.parse(bytes))?.objectValue,
                let time = object["time"]?.intValue, time >= 0, time <= now + Self.largestClockSkew,
                let files = object["files"]?.arrayValue?.compactMap(\.stringValue)
            else {
                damaged.append(path)
                continue
            }
            // Anything but `true` is a record of files that left the index: the older claim.
            let neverListed = object["never_listed"] == .bool(true)
            records.append(Record(path: path, time: time, files: files, neverListed: neverListed))
        }
        return (records, damaged)
    }
}
