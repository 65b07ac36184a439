import Foundation
import Synchronization
import Zinc

/// Many client repos, each an install with an id of its own, following one catalog's
/// `Game@master` through a rollout's life (#52's acceptance): the same walk against every
/// kind of host, each host's test giving how the catalog reaches it.
public struct RolloutFleet: Sendable {
    let dir: TemporaryDirectory
    let environment: [String: String]
    /// The install ids, `install-0`…; repo `fleet/K` is install K.
    public let ids: [String]

    /// `count` repos in `dir`'s `fleet/`, each made with its `--install-id` and tracking
    /// `Game@master` at `catalogURL`.
    public init(count: Int, catalogURL: String, in dir: TemporaryDirectory, environment: [String: String] = [:]) throws {
        self.dir = dir
        self.environment = environment
        ids = (0..<count).map { "install-\($0)" }
        let fleet = self
        try fleet.forEachRepo { k in
            try fleet.run(["repo_init", "fleet/\(k)", "--install-id", fleet.ids[k]])
            try fleet.run(["track", "--repo", "fleet/\(k)", "--catalog", catalogURL, "--bundle", "Game", "--distro", "master"])
        }
    }

    /// Catalog `cat` in `dir` with three versions of `Game`, `master` at 1: what the walk
    /// starts from.
    public static func makeCatalog(in dir: TemporaryDirectory) throws {
        let fleet = publisher(in: dir)
        try fleet.run(["create_catalog", "--id", "com.example.fleet", "--dest", "cat"])
        for version in 1...3 {
            try dir.write("src/level.txt", "level \(version)")
            try fleet.run(["update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "src", "--quiet"])
        }
        try fleet.run(["update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "1"])
    }

    /// A fleet of no repo, to run the publisher's commands in `dir`.
    public static func publisher(in dir: TemporaryDirectory, environment: [String: String] = [:]) -> RolloutFleet {
        RolloutFleet(dir: dir, environment: environment)
    }

    private init(dir: TemporaryDirectory, environment: [String: String]) {
        self.dir = dir
        self.environment = environment
        ids = []
    }

    /// Start at 10 %, set 50 %, pause, halt, then a second rollout started and completed:
    /// after each change `publish()` puts the catalog on the host, every repo syncs, and
    /// each must be on the version its draw gives. Returns a description of each repo on
    /// the wrong version (none when all is well).
    public func walk(publish: () throws -> Any) throws -> [String] {
        var wrong = [String]()
        func step(_ name: String, _ change: [String], expect: (String) throws -> Int) throws {
            try run(["rollout"] + change + ["--catalog", "cat", "--bundle", "Game", "--distro", "master"])
            _ = try publish()
            let versions = try syncAll()
            for (k, id) in ids.enumerated() where versions[k] != (try expect(id)) {
                wrong.append("\(name): \(id) is on version \(versions[k]), not \(try expect(id))")
            }
        }
        _ = try publish()
        wrong += try syncAll().enumerated().filter { $0.element != 1 }.map { "before: install-\($0.offset) on \($0.element)" }
        try step("start 10%", ["start", "--version", "2", "--percent", "10"]) { try drawn($0, below: 1_000) ? 2 : 1 }
        try step("set 50%", ["set", "--percent", "50"]) { try drawn($0, below: 5_000) ? 2 : 1 }
        try step("pause", ["pause"]) { try drawn($0, below: 5_000) ? 2 : 1 }
        try step("halt", ["halt"]) { _ in 1 }
        try step("second start 20%", ["start", "--version", "3", "--percent", "20"]) { try drawn($0, below: 2_000) ? 3 : 1 }
        try step("complete", ["complete"]) { _ in 3 }
        return wrong
    }

    /// Whether install `id` is in the rollout now in `cat`, computed here from the file's
    /// salt with the rule FORMAT.md gives.
    func drawn(_ id: String, below basisPoints: Int) throws -> Bool {
        let file = "rollouts/Game~master.rollout"
        let rollout = try RolloutFile.parse(try dir.read("cat/" + file), path: file)
        return RolloutSelection.slot(of: id, salt: rollout.salt) < basisPoints
    }

    /// Syncs every repo, two at a time, and returns the version each is on.
    func syncAll() throws -> [Int] {
        let versions = Mutex([Int](repeating: 0, count: ids.count))
        try forEachRepo { k in
            let report = try run(["sync", "--repo", "fleet/\(k)", "--json", "--quiet"])
            let json = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
            let bundles = json?["bundles"] as? [[String: Any]]
            let version = bundles?.first?["version"] as? Int ?? -1
            versions.withLock { $0[k] = version }
        }
        return versions.withLock { $0 }
    }

    private func forEachRepo(_ body: @Sendable (Int) throws -> Void) throws {
        let failure = Mutex<String?>(nil)
        let count = ids.count
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for k in stride(from: worker, to: count, by: 2) {
                do { try body(k) } catch { failure.withLock { $0 = $0 ?? "\(error)" } }
            }
        }
        if let message = failure.withLock({ $0 }) { throw TestServerError(message) }
    }

    /// Throws rather than records a failure: it runs on `forEachRepo`'s worker threads,
    /// outside any test, and this file builds without Swift Testing (so without ZincRunner).
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let result = try ZincBinary.run(arguments, in: dir.path, extraEnvironment: environment)
        guard result.status == 0 else { throw TestServerError("zinc \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }
}
