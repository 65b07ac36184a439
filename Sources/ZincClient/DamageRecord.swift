import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `damage.json`: the checked-out folders that `status` or `repo verify` found damaged,
/// for the next sync to check and rebuild. A sync of a bundle already at its version
/// does not walk its folder (that would cost a `stat` per file on every launch of an
/// app); it trusts the folder it built unless this record names it, as git trusts its
/// index until `git status` finds a file changed.
///
///     {"format":1,"folders":["<catalog id>.<bundle>-<v>[~flavor]", …]}
///
/// A record that cannot be read names every folder: each is then checked, as before the
/// record existed, and the record written afresh.
struct DamageRecord: Equatable, Sendable {
    static let fileName = "damage.json"

    /// Folders found damaged (`Repo.descriptor` names), and those the file named.
    private var damaged: Set<String>
    private let saved: Set<String>
    /// The file could not be read: every folder is named but those checked since.
    private var unreadable = false
    private var checked = Set<String>()

    private init(damaged: Set<String>, unreadable: Bool = false) {
        self.damaged = damaged
        self.saved = damaged
        self.unreadable = unreadable
    }

    static func load(from repo: Repo) -> DamageRecord {
        let path = repo.root + "/" + fileName
        guard access(path, F_OK) == 0 else { return DamageRecord(damaged: []) }
        guard let bytes = try? AtomicFile.read(path, limit: 16 << 20), case .object(let top)? = try? JSONValue.parse(bytes),
            case .int(1)? = top["format"], case .array(let names)? = top["folders"]
        else { return DamageRecord(damaged: [], unreadable: true) }
        var damaged = Set<String>()
        for case .string(let name) in names { damaged.insert(name) }
        return DamageRecord(damaged: damaged)
    }

    /// Whether the folder named `descriptor` must be checked before it is trusted.
    func names(_ descriptor: String) -> Bool {
        damaged.contains(descriptor) || (unreadable && !checked.contains(descriptor))
    }

    /// Records what a check of the folder `descriptor` found.
    mutating func record(_ descriptor: String, damaged isDamaged: Bool) {
        checked.insert(descriptor)
        if isDamaged { damaged.insert(descriptor) } else { damaged.remove(descriptor) }
    }

    /// Writes the record of the folders `checkedOut` (the others are forgotten), or
    /// removes the file when it names none; nothing when that is what the file says.
    func save(in repo: Repo, checkedOut: Set<String>) throws {
        var named = damaged
        if unreadable { named.formUnion(checkedOut.subtracting(checked)) }
        named.formIntersection(checkedOut)
        guard named != saved || unreadable else { return }
        let path = repo.root + "/" + Self.fileName
        guard !named.isEmpty else {
            if unlink(path) != 0, errno != ENOENT { throw ZincError.io(path: path, operation: "remove", errno: errno) }
            return
        }
        try AtomicFile.write(
            JSONValue.object(["format": .int(1), "folders": .array(named.sorted().map { .string($0) })]).encoded(), to: path)
    }
}

extension RepoState {
    /// The folder names (`Repo.descriptor`) of the versions checked out.
    var checkedOutFolders: Set<String> {
        Set(bundles.compactMap { $0.checkedOutFolder })
    }
}

extension RepoState.TrackedBundle {
    /// The name of the checked-out version's folder under bundles/, nil before the first sync.
    var checkedOutFolder: String? {
        version.map { Repo.descriptor(catalog: catalog, bundle: bundle, version: $0, flavor: flavor) }
    }
}
