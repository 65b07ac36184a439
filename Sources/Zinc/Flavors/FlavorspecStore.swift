#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The flavorspecs a catalog keeps under `config/flavorspecs/<name>.json`, so every
/// machine that imports bundles applies the same rules by naming them
/// (`update_bundle --flavors devices`) instead of carrying a copy of the file.
public struct FlavorspecStore: Sendable {
    public let storage: CatalogStorage

    public static let folder = "config/flavorspecs"

    public init(storage: CatalogStorage) {
        self.storage = storage
    }

    /// The catalog-relative path of the flavorspec stored as `name`.
    public static func path(name: String) -> String {
        "\(folder)/\(name).json"
    }

    /// The stored names, sorted.
    public func names() throws -> [String] {
        try storage.list(Self.folder).compactMap { path -> String? in
            let name = path.dropFirst(Self.folder.count + 1)
            guard !name.contains("/"), name.hasSuffix(".json") else { return nil }
            return String(name.dropLast(".json".count))
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The flavorspec stored as `name`.
    public func load(_ name: String) throws -> Flavorspec {
        try Names.validateFlavorName(name)
        let path = Self.path(name: name)
        guard let bytes = try storage.read(path) else { throw notFound(name) }
        return try Flavorspec.parse(bytes, source: storage.location + "/" + path)
    }

    /// Stores `spec` under `name`, replacing a flavorspec stored under that name before.
    public func save(_ spec: Flavorspec, as name: String) throws {
        try Names.validateFlavorName(name)
        try storage.write(spec.encoded(), to: Self.path(name: name))
        try storage.flush()
    }

    /// Removes the flavorspec stored as `name`; versions imported with it keep their flavors.
    public func delete(_ name: String) throws {
        try Names.validateFlavorName(name)
        let path = Self.path(name: name)
        guard try storage.exists(path) else { throw notFound(name) }
        try storage.delete(path)
        try storage.flush()
    }

    /// What `--flavors SPEC` names: the flavorspec file at that path when there is one,
    /// otherwise the flavorspec stored in the catalog under that name.
    public func resolve(_ spec: String) throws -> Flavorspec {
        if let file = try Flavorspec.load(file: spec) { return file }
        let isName = (try? Names.validateFlavorName(spec)) != nil
        if isName, try storage.exists(Self.path(name: spec)) { return try load(spec) }
        throw ZincError.flavorspecNotFound(spec: spec, catalog: storage.location)
    }

    private func notFound(_ name: String) -> ZincError {
        .flavorspecNotStored(name: name, catalog: storage.location)
    }
}

extension Catalog {
    public var flavorspecs: FlavorspecStore { FlavorspecStore(storage: storage) }
}

extension Flavorspec {
    /// Reads and validates a flavorspec file; nil when nothing is at `path`.
    public static func load(file path: String) throws -> Flavorspec? {
        let file: PosixFile
        do {
            file = try PosixFile.open(path)
        } catch let error as ZincError where error.errno == ENOENT || error.errno == ENOTDIR {
            return nil
        }
        return try parse(file.readToEnd(), source: path)
    }
}
