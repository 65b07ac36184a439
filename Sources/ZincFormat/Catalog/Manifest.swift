/// The description of one bundle version (`manifests/<bundle>-<version>.json`):
/// path -> object, plus flavors.
package struct Manifest: Equatable, Sendable {
    package var catalog: String
    package var bundle: String
    package var version: Int
    /// Every flavor used by some file, in first-seen order.
    package var flavors: [String]
    package var files: [String: Entry]

    /// One file of the version: the object holding its content, and its flavors.
    package struct Entry: Equatable, Sendable {
        package var object: StoredObject
        /// The flavors that include this file; nil when the bundle has no flavorspec.
        package var flavors: [String]?

        package init(object: StoredObject, flavors: [String]? = nil) {
            self.object = object
            self.flavors = flavors
        }

        package var sha: String { object.sha }

        /// Whether the file is in `flavor`'s scope; every file is in the whole bundle's (nil).
        package func isIn(flavor: String?) -> Bool {
            flavor == nil || (flavors ?? []).contains(flavor!)
        }
    }

    package init(catalog: String, bundle: String, version: Int, flavors: [String] = [], files: [String: Entry]) {
        self.catalog = catalog
        self.bundle = bundle
        self.version = version
        self.flavors = flavors
        self.files = files
    }

    /// The catalog-relative path of a version's manifest (without the `.gz` of its
    /// compressed copy).
    package static func path(bundle: String, version: Int) -> String {
        "manifests/\(bundle)-\(version).json"
    }

    package var path: String { Self.path(bundle: bundle, version: version) }

    /// The distinct objects of the whole bundle, or of one flavor.
    package func objects(flavor: String? = nil) -> [String: StoredObject] {
        Dictionary(uniqueKeysWithValues: objectsByDigest(flavor: flavor).map { ($0.key.hex, $0.value) })
    }

    /// `objects(flavor:)` by digest, with no hex strings to make.
    package func objectsByDigest(flavor: String? = nil) -> [SHA1.Digest: StoredObject] {
        var objects = [SHA1.Digest: StoredObject]()
        for entry in files.values where entry.isIn(flavor: flavor) {
            objects[entry.object.digest] = entry.object
        }
        return objects
    }

    /// The paths of one flavor (all paths without a flavor).
    package func paths(flavor: String? = nil) -> [String] {
        files.filter { $0.value.isIn(flavor: flavor) }.map(\.key)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static let topLevelKeys: Set<String> = ["format", "catalog", "bundle", "version", "flavors", "files"]

    /// Parses and validates a manifest. Readers downstream use these paths to write
    /// files, so an unsafe path or an unknown key is refused, never passed on.
    package static func parse(_ bytes: [UInt8], path: String) throws -> Manifest {
        try collecting(path: path) { try parse(bytes, path: path, visit: $0) }
    }

    /// `parse(_:path:)` of a manifest read from a file as a stream.
    package static func parse(_ document: StreamedDocument) throws -> Manifest {
        try collecting(path: document.name) { try parse(document, visit: $0) }
    }

    /// The manifest `parse` reads, its files collected into `files`.
    private static func collecting(path: String, _ parse: ((String, Entry) throws -> Void) throws -> Manifest) throws -> Manifest {
        var files = [String: Entry]()
        var manifest = try parse { filePath, entry in
            guard files.updateValue(entry, forKey: filePath) == nil else {
                throw ZincError.corruptFile(path: path, reason: "file '\(filePath)' is listed twice")
            }
        }
        manifest.files = files
        return manifest
    }

    /// Parses and validates a manifest, handing each file entry to `visit` as it is read
    /// instead of collecting them (the result's `files` is empty): comparing a tree of
    /// 100,000 files against the newest version needs no table of the manifest.
    package static func parse(_ bytes: [UInt8], path: String, visit: (String, Entry) throws -> Void) throws -> Manifest {
        let (top, hasFiles) = try json(path: path) {
            try JSONParser.parseObject(bytes, streaming: "files") { try visit($1, try entry($1, &$0, path: path)) }
        }
        return try header(top, hasFiles: hasFiles, path: path)
    }

    /// `parse(_:path:visit:)` of a manifest read from a file as a stream, in pieces:
    /// memory stays at a piece and one file entry whatever the manifest's size.
    package static func parse(_ document: StreamedDocument, visit: (String, Entry) throws -> Void) throws -> Manifest {
        let path = document.name
        let (top, hasFiles) = try json(path: path) {
            try JSONParser.parseObject(reading: document.read, streaming: "files") { try visit($1, try entry($1, &$0, path: path)) }
        }
        return try header(top, hasFiles: hasFiles, path: path)
    }

    /// `parse`'s JSON errors as a corrupt `path`.
    private static func json<T>(path: String, _ parse: () throws -> T) throws -> T {
        do { return try parse() } catch let error as JSONValue.ParseError {
            throw ZincError.corruptFile(path: path, reason: "not JSON (\(error))")
        }
    }

    /// The manifest's top-level members, checked: everything but its files.
    private static func header(_ top: [String: JSONValue], hasFiles: Bool, path: String) throws -> Manifest {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        if let unknown = top.keys.first(where: { !topLevelKeys.contains($0) }) { throw corrupt("unknown key '\(unknown)'") }
        guard hasFiles else { throw corrupt("no 'files' object") }
        if let format = top["format"], format.stringValue != CatalogIndex.formatVersion {
            throw ZincError.unsupportedFormat(path: path, format: format.stringValue ?? "\(format)")
        }
        guard let catalog = top["catalog"]?.stringValue else { throw corrupt("no string 'catalog'") }
        try Names.checked(in: path) { try Names.validateCatalogID(catalog) }
        guard let bundle = top["bundle"]?.stringValue else { throw corrupt("no string 'bundle'") }
        try Names.checked(in: path) { try Names.validateBundleName(bundle) }
        guard let version = top["version"]?.intValue, (1...Int64(CatalogIndex.maximumVersion)).contains(version) else {
            throw corrupt("no 'version' from 1 to \(CatalogIndex.maximumVersion)")
        }
        let flavors = try stringList(top["flavors"], what: "'flavors'", corrupt) ?? []
        for flavor in flavors { try Names.checked(in: path) { try Names.validateFlavorName(flavor) } }
        return Manifest(catalog: catalog, bundle: bundle, version: Int(version), flavors: flavors, files: [:])
    }

    /// One entry of `files`, validated: its path is safe, its keys known, its sha and
    /// sizes well-formed.
    private static func entry(_ filePath: String, _ parser: inout JSONParser, path: String) throws -> Entry {
        func corrupt(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        do { try Names.validateRelativePath(filePath) } catch let error as ZincError { throw corrupt("\(error)") }
        guard try parser.peek(UInt8(ascii: "{")) else { throw corrupt("file '\(filePath)' is not an object") }
        var hasSHA = false
        var digest: SHA1.Digest?
        var sizes: StoredObject.Sizes?
        var flavors: JSONValue?
        try parser.parseMembers { parser, key in
            switch key {
            case "sha" where !hasSHA:
                hasSHA = true
                // The digest straight from the string's bytes; any other value is refused below.
                if try parser.peek(UInt8(ascii: "\"")) {
                    digest = try parser.parseString(as: SHA1.Digest.init(hexDigits:))
                } else {
                    _ = try parser.parseValue()
                }
            case "formats" where sizes == nil: sizes = try Self.formats(of: filePath, &parser, corrupt)
            case "flavors" where flavors == nil: flavors = try parser.parseValue()
            case "sha", "formats", "flavors": throw parser.error("duplicate key '\(key)'")
            default: throw corrupt("file '\(filePath)' has unknown key '\(key)'")
            }
        }
        guard let digest else {
            throw corrupt("file '\(filePath)' has no valid 'sha' (40 lowercase hex digits)")
        }
        guard let sizes, sizes != .none else { throw corrupt("file '\(filePath)' has no 'formats'") }
        let fileFlavors = try stringList(flavors, what: "'flavors' of '\(filePath)'", corrupt)
        for flavor in fileFlavors ?? [] { try Names.checked(in: path) { try Names.validateFlavorName(flavor) } }
        return Entry(object: StoredObject(digest: digest, sizes: sizes), flavors: fileFlavors)
    }

    /// A file entry's `formats`: each a known format with a `size` in range, as the
    /// sizes a `StoredObject` holds (no dictionary made per file). Nil when the value is
    /// not an object (the entry then has no formats).
    private static func formats(
        of filePath: String, _ parser: inout JSONParser, _ corrupt: (String) -> ZincError
    ) throws -> StoredObject.Sizes? {
        guard try parser.peek(UInt8(ascii: "{")) else {
            _ = try parser.parseValue()
            return nil
        }
        var (gz, raw): (Int64, Int64) = (-1, -1)
        try parser.parseMembers { parser, name in
            guard let format = ObjectFormat(rawValue: name) else { throw corrupt("file '\(filePath)' has unknown format '\(name)'") }
            guard (format == .gz ? gz : raw) < 0 else { throw parser.error("duplicate key '\(name)'") }
            // Other members of a format are ignored, as readers of the format may add some.
            var size: JSONValue?
            if try parser.peek(UInt8(ascii: "{")) {
                try parser.parseMembers { parser, key in
                    let value = try parser.parseValue()
                    guard key == "size" else { return }
                    guard size == nil else { throw parser.error("duplicate key 'size'") }
                    size = value
                }
            } else {
                _ = try parser.parseValue()
            }
            guard let size = size?.intValue, (0...maximumObjectSize).contains(size) else {
                throw corrupt("file '\(filePath)' format '\(name)' has no 'size' from 0 to \(maximumObjectSize)")
            }
            if format == .gz { gz = size } else { raw = size }
        }
        return StoredObject.Sizes(gz: gz, raw: raw)
    }

    /// The largest object size a manifest may state (1 TiB): sizes are added up into
    /// archive offsets and download plans, which a hostile size must not overflow.
    package static let maximumObjectSize: Int64 = 1 << 40

    private static func stringList(_ value: JSONValue?, what: String, _ corrupt: (String) -> ZincError) throws -> [String]? {
        guard let value else { return nil }
        guard let items = value.arrayValue else { throw corrupt("\(what) is not a list") }
        return try items.map { item in
            guard let s = item.stringValue else { throw corrupt("\(what) holds a non-string") }
            return s
        }
    }

    /// The manifest as the JSON document clients read.
    package func json() -> JSONValue {
        let filesJSON = files.mapValues { entry -> JSONValue in
            var object: [String: JSONValue] = [
                "sha": .string(entry.sha),
                "formats": .object(
                    Dictionary(
                        uniqueKeysWithValues: entry.object.formats.map {
                            ($0.key.rawValue, JSONValue.object(["size": .int($0.value)]))
                        })),
            ]
            if let flavors = entry.flavors { object["flavors"] = .array(flavors.map { .string($0) }) }
            return .object(object)
        }
        return .object([
            "catalog": .string(catalog),
            "bundle": .string(bundle),
            "version": .int(Int64(version)),
            "flavors": .array(flavors.map { .string($0) }),
            "files": .object(filesJSON),
        ])
    }

    /// The same bytes as `json().encoded()`, written directly: a manifest of 100,000
    /// files would otherwise build a tree of that many dictionaries first.
    package func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(files.count * 120 + 256)
        encode { out.append(contentsOf: $0) }
        return out
    }

    /// `encoded()`, handed to `sink` in pieces of about 64 KiB, so a manifest of
    /// 100,000 files (11 MB of JSON) is never held whole.
    package func encode(_ sink: ([UInt8]) throws -> Void) rethrows {
        let paths = files.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        try Self.encode(
            catalog: catalog, bundle: bundle, version: version, flavors: flavors,
            files: paths.lazy.map { ($0, files[$0]!) }, sink)
    }

    /// `encode` for files given in manifest order: paths ascending by Unicode scalars,
    /// which for UTF-8 is byte order.
    package static func encode(
        catalog: String, bundle: String, version: Int, flavors: [String],
        files: some Sequence<(String, Entry)>, _ sink: ([UInt8]) throws -> Void
    ) rethrows {
        var out = [UInt8]()
        out.reserveCapacity(Self.encodingPiece + 1024)
        func put(_ text: String) { out.append(contentsOf: text.utf8) }
        func putStrings(_ list: [String]) {
            put("[")
            for (i, item) in list.enumerated() {
                if i > 0 { put(",") }
                JSONValue.writeString(item, to: &out)
            }
            put("]")
        }
        put("{\"bundle\":")
        JSONValue.writeString(bundle, to: &out)
        put(",\"catalog\":")
        JSONValue.writeString(catalog, to: &out)
        put(",\"files\":{")
        for (i, (path, entry)) in files.enumerated() {
            if i > 0 { put(",") }
            JSONValue.writeString(path, to: &out)
            put(":{")
            if let flavors = entry.flavors {
                put("\"flavors\":")
                putStrings(flavors)
                put(",")
            }
            // The formats by name, "gz" before "raw", written from the sizes: no
            // dictionary, sort or interpolated string for each of 100,000 files.
            let sizes = entry.object.sizes
            put("\"formats\":{")
            if sizes.gz >= 0 {
                put("\"gz\":{\"size\":")
                put(String(sizes.gz))
                put(sizes.raw >= 0 ? "}," : "}")
            }
            if sizes.raw >= 0 {
                put("\"raw\":{\"size\":")
                put(String(sizes.raw))
                put("}")
            }
            put("},\"sha\":\"")
            entry.object.digest.appendHex(to: &out)
            put("\"}")
            if out.count >= Self.encodingPiece {
                try sink(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        put("},\"flavors\":")
        putStrings(flavors)
        put(",\"version\":\(version)}")
        try sink(out)
    }

    private static let encodingPiece = 1 << 16
}
