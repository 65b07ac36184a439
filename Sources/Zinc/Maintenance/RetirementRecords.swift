/// When files left the index, so that `clean` removes nothing a client may still be
/// sent to. A client (or a CDN in front of the catalog) may hold a copy of the index
/// for its cache lifetime (`max-age=300`); every manifest, archive and object that copy
/// lists must stay that long after the index stopped listing it.
///
/// Each record is `retired/<ms>-<random>.json`, `{"time": MS, "files": [...]}`: the
/// files, and when they were found to be listed no more (milliseconds since 1970).
/// `delete_bundle` writes one for the manifests and archives it takes out of the index;
/// `clean` writes one for unreferenced files it finds without a record (objects of
/// deleted versions, leftovers of killed imports). Records are only ever created and
/// deleted, never changed, so writers on many machines need no lock to add them. Old
/// clients and tools never look in `retired/`.
struct RetirementRecords {
    static let folder = "retired"

    let storage: CatalogStorage

    struct Record {
        let path: String
        let time: Int64
        let files: [String]
    }

    /// Records that `files` left the index now.
    func record(_ files: [String], at time: Int64 = WallClock.nowMilliseconds()) throws {
        guard !files.isEmpty else { return }
        let body = JSONValue.object(["time": .int(time), "files": .array(files.map { .string($0) })])
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        _ = try storage.write(body.encoded(), to: "\(Self.folder)/\(time)-\(random).json", .ifAbsent)
    }

    /// Every readable record, and the paths of the unreadable ones (garbage themselves).
    func load() throws -> (records: [Record], damaged: [String]) {
        var records = [Record]()
        var damaged = [String]()
        for path in try storage.list(Self.folder) {
            guard let bytes = try storage.read(path),
                let object = (try? JSONValue.parse(bytes))?.objectValue,
                let time = object["time"]?.intValue,
                let files = object["files"]?.arrayValue?.compactMap(\.stringValue)
            else {
                damaged.append(path)
                continue
            }
            records.append(Record(path: path, time: time, files: files))
        }
        return (records, damaged)
    }
}
