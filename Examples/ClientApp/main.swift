// What an app does with ZincClient, through its async API: the first launch starts from
// the seed the app ships (no network needed), later launches sync with a progress
// display, Ctrl-C cancels the sync (the next run resumes it), and each failure is
// handled by its code.
//
//   swift run ClientAppExample                       a demo: publishes a catalog of
//                                                    Examples/BasicAdjectives into a temporary
//                                                    folder, ships a seed of it, then updates
//   swift run ClientAppExample URL BUNDLE [REPO]     syncs BUNDLE of the catalog at URL
//                                                    (http(s)://, file:// or a path) into REPO

import Foundation
import Zinc
import ZincClient

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
    let repo = try Repo.openOrCreate(at: arguments.count > 2 ? arguments[2] : "app-data")
    _ = try await repo.track(url: arguments[0], bundle: arguments[1])
    return await syncShowingProgress(repo)
}

/// The demo: a catalog published, its seed shipped, a first launch, an update.
func demo() async throws -> Bool {
    // The publisher's side, as a build pipeline runs it.
    let work = (NSTemporaryDirectory() as NSString).appendingPathComponent("zinc-client-app-\(getpid())")
    defer { try? FileManager.default.removeItem(atPath: work) }
    let catalog = try Catalog.create(id: "com.example.lessons", in: FileStorage(root: work + "/catalog"))
    _ = try catalog.updateBundle("Lesson", from: "Examples/BasicAdjectives")
    try DistroUpdate(catalog, bundle: "Lesson", distro: "master", to: .latest).run()
    let seed = try SeedExport(catalog, bundle: "Lesson", version: .distro("master"), to: work + "/App.app/seed").run()
    print("Shipped a seed of Lesson version \(seed.seed.version) inside the app (\(seed.fileCount) files)")

    // First launch, offline: the bundle is there at once.
    let repo = try Repo.openOrCreate(at: work + "/app-data")
    let seeded = try await repo.seed(from: seed.folder, sources: ["file://" + work + "/catalog"])
    let current = repo.currentFolder(catalog: seeded.catalog, bundle: seeded.bundle)
    print("First launch: version \(seeded.version) from the seed, no request; the app reads \(current)")

    // The lesson changes; the next launch syncs only the change.
    try FileManager.default.copyItem(atPath: "Examples/BasicAdjectives", toPath: work + "/lesson")
    try "A new word: rapide\n".write(toFile: work + "/lesson/new-word.txt", atomically: true, encoding: .utf8)
    _ = try catalog.updateBundle("Lesson", from: work + "/lesson")
    try DistroUpdate(catalog, bundle: "Lesson", distro: "master", to: .latest).run()
    let plan = try await repo.plan()
    for bundle in plan.bundles { print("Plan: " + bundle.line) }
    return await syncShowingProgress(repo)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let succeeded = try await arguments.count >= 2 ? syncFromCatalog(arguments) : demo()
exit(succeeded ? 0 : 1)
