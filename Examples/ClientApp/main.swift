// What an app does with ZincClient, through its async API: the first launch starts from
// the seed the app ships (no network needed), later launches sync with a progress
// display, Ctrl-C cancels the sync (the next run resumes it), and each failure is
// handled by its code.
//
//
// It imports `ZincFormat` and `ZincClient` alone, as an app does: the demo publishes
// with the `zinc` command, as a build pipeline does.
//
//   swift build --product zinc && swift run ClientAppExample
//                                                    a demo: publishes a catalog of
//                                                    Examples/BasicAdjectives into a temporary
//                                                    folder, ships a seed of it, then updates
//                                                    (`zinc` from beside this program, or $ZINC)
//   swift run ClientAppExample URL BUNDLE [REPO]     syncs BUNDLE of the catalog at URL
//                                                    (http(s)://, file:// or a path) into REPO

import Foundation
import ZincClient
import ZincFormat

/// Cancels `task` on Ctrl-C, as an app cancels a sync when its screen goes away.
func cancelOnInterrupt(_ task: Task<SyncReport, any Error>) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT)
    source.setEventHandler {
        print("\ncancelling…")
        task.cancel()
    }
    source.resume()
    return source
}

/// One sync with a progress line, cancellable; every failure told by its code.
func syncShowingProgress(_ repo: Repo) async -> Bool {
    let (updates, continuation) = AsyncStream.makeStream(of: SyncProgress.self)
    let display = Task {
        for await update in updates where update.phase == .downloading && update.totalBytes > 0 {
            let percent = 100 * update.completedBytes / update.totalBytes
            print("\r\(update.bundle): \(percent) % (\(update.completedObjects)/\(update.totalObjects) objects)", terminator: "")
        }
    }
    let syncing = Task { try await repo.sync(progress: continuation) }
    let interrupt = cancelOnInterrupt(syncing)
    defer { interrupt.cancel() }
    do {
        let report = try await syncing.value
        await display.value
        print("")
        for bundle in report.bundles {
            guard let failure = bundle.failure else {
                print(bundle.line)
                continue
            }
            switch failure.code {
            case .network, .httpStatus: print("\(bundle.name): offline or unreachable; keeping version \(bundle.previousVersion ?? 0)")
            case .diskFull: print("\(bundle.name): the disk is full; free some space and try again")
            case .untrusted, .rolledBack: print("\(bundle.name): the catalog was tampered with; keeping what we have: \(failure)")
            default: print("\(bundle.name): failed (\(failure.code)): \(failure)")
            }
        }
        return !report.failed
    } catch let error as SyncError where error.code == .cancelled {
        print("\ncancelled: the next run resumes where this one stopped")
        return false
    } catch {
        print("\nsync failed: \(error)")
        return false
    }
}

/// A real catalog: `URL BUNDLE [REPO]`.
func syncFromCatalog(_ arguments: [String]) async throws -> Bool {
    let repo = try Repo.openOrCreate(at: URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : "app-data"))
    guard let catalog = URL(string: arguments[0]), catalog.scheme != nil else {
        print("not a catalog URL: '\(arguments[0])' (https://, http://, s3:// or file://)")
        return false
    }
    try await repo.track(url: catalog, bundle: arguments[1])
    return await syncShowingProgress(repo)
}

/// The `zinc` command the demo publishes with: $ZINC, or the one `swift build` put beside
/// this program.
func zincCommand() -> URL? {
    if let path = ProcessInfo.processInfo.environment["ZINC"], !path.isEmpty { return URL(fileURLWithPath: path) }
    let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("zinc")
    return beside.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }
}

/// A `zinc` run that failed (it printed why).
struct CommandFailed: Error, CustomStringConvertible {
    let description: String
}

/// Runs `zinc` with `arguments`, as a build pipeline does; its standard output when `capture`.
@discardableResult
func zinc(_ command: URL, _ arguments: String..., capture: Bool = false) throws -> Data {
    let process = Process()
    process.executableURL = command
    process.arguments = arguments
    let output = Pipe()
    if capture { process.standardOutput = output }
    try process.run()
    let data = capture ? output.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CommandFailed(description: "zinc \(arguments.joined(separator: " ")) failed")
    }
    return data
}

/// The demo: a catalog published, its seed shipped, a first launch, an update.
func demo() async throws -> Bool {
    guard let command = zincCommand() else {
        print("The demo publishes with the zinc command: build it first (swift build --product zinc) or set ZINC.")
        return false
    }
    // The publisher's side, as a build pipeline runs it.
    let work = (NSTemporaryDirectory() as NSString).appendingPathComponent("zinc-client-app-\(getpid())")
    defer { try? FileManager.default.removeItem(atPath: work) }
    let catalog = work + "/catalog"
    try zinc(command, "create_catalog", "--id", "com.example.lessons", "--dest", catalog)
    try zinc(command, "update_bundle", "--catalog", catalog, "--bundle", "Lesson", "--source", "Examples/BasicAdjectives")
    try zinc(command, "update_distro", "--catalog", catalog, "--bundle", "Lesson", "--distro", "master", "--version", "latest")
    let exported = try zinc(
        command, "export_seed", "--catalog", catalog, "--bundle", "Lesson", "--distro", "master", "--out", work + "/App.app/seed",
        "--json", capture: true)
    let seed = try JSONSerialization.jsonObject(with: exported) as? [String: Any] ?? [:]
    print("Shipped a seed of Lesson version \(seed["version"] ?? "?") inside the app (\(seed["files"] ?? "?") files)")

    // First launch, offline: the bundle is there at once.
    let repo = try Repo.openOrCreate(at: URL(fileURLWithPath: work + "/app-data"))
    let seeded = try await repo.seed(
        from: URL(fileURLWithPath: work + "/App.app/seed"), sources: [URL(fileURLWithPath: catalog)])
    let current = repo.currentFolder(catalog: seeded.catalog, bundle: seeded.bundle)
    print("First launch: version \(seeded.version) from the seed, no request; the app reads \(current.path)")

    // The lesson changes; the next launch syncs only the change.
    try FileManager.default.copyItem(atPath: "Examples/BasicAdjectives", toPath: work + "/lesson")
    try "A new word: rapide\n".write(toFile: work + "/lesson/new-word.txt", atomically: true, encoding: .utf8)
    try zinc(command, "update_bundle", "--catalog", catalog, "--bundle", "Lesson", "--source", work + "/lesson")
    try zinc(command, "update_distro", "--catalog", catalog, "--bundle", "Lesson", "--distro", "master", "--version", "latest")
    let plan = try await repo.plan()
    for bundle in plan.bundles { print("Plan: " + bundle.line) }
    return await syncShowingProgress(repo)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let succeeded = try await arguments.count >= 2 ? syncFromCatalog(arguments) : demo()
exit(succeeded ? 0 : 1)
