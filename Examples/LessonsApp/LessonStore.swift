// The model of an iOS app's lessons screen, written from docs/CLIENT.md: the state a
// SwiftUI view observes, and the calls behind its buttons. It uses what an app on a
// phone uses: file URLs for folders, a catalog's URL, one error type (`SyncError`,
// switched on by code) and a `Foundation.Progress` for the progress bar.

import Foundation
import Observation
import ZincClient
import ZincURLSession

@MainActor @Observable final class LessonStore {
    /// What the screen shows.
    enum State: Equatable {
        case loading
        /// The lessons' folder (a file URL): the view reads its files from there.
        case ready(URL, version: Int)
        /// Words for the user, and whether trying again may help.
        case failed(String, canRetry: Bool)
    }

    private(set) var state = State.loading
    /// The download's progress, for `ProgressView(store.progress)`: bytes of the whole sync.
    private(set) var progress = Progress(totalUnitCount: 0)

    private let catalog: URL
    private let bundle: String
    private let repoFolder: URL
    private let seed: URL?
    /// One transport for the app's life: its session's connections are reused.
    private let transport = URLSessionTransport()
    private var syncing: Task<Void, Never>?

    /// `catalog` is where the lessons are published, `repoFolder` the app's own folder
    /// for them (under Application Support on iOS), `seed` the one shipped in the app.
    init(catalog: URL, bundle: String, repoFolder: URL, seed: URL?) {
        self.catalog = catalog
        self.bundle = bundle
        self.repoFolder = repoFolder
        self.seed = seed
    }

    /// At launch: the seed's lessons at once when the app ships one, then the latest.
    func launch() async {
        do {
            let repo = try Repo.openOrCreate(at: repoFolder)
            if let seed, try await repo.status().isEmpty {
                let seeded = try await repo.seed(from: seed, sources: [catalog])
                state = .ready(repo.currentFolder(catalog: seeded.catalog, bundle: seeded.bundle), version: seeded.checkedOutVersion)
            } else if try await repo.status().isEmpty {
                try await repo.track(url: catalog, bundle: bundle, options: options())
            }
        } catch {
            state = Self.failure(error)
            return
        }
        await refresh()
    }

    /// "Check for new lessons": one sync, cancelled by `cancel()`; the lessons in use stay
    /// readable throughout, and a failed or cancelled sync keeps them.
    func refresh() async {
        syncing?.cancel()
        progress = Progress(totalUnitCount: 0)
        var options = options()
        options.report(to: progress)
        let task = Task { [repoFolder, options, bundle] () async -> State? in
            do {
                let repo = try Repo(at: repoFolder)
                let report = try await repo.sync(options: options)
                guard let synced = report.bundles.first(where: { $0.bundle == bundle }) else { return nil }
                if let failure = synced.failure { return Self.failure(failure) }
                guard let version = synced.version else { return nil }
                return .ready(repo.currentFolder(catalog: synced.catalog, bundle: synced.bundle), version: version)
            } catch {
                return Self.failure(error)
            }
        }
        syncing = Task { if let state = await task.value { self.state = state } }
        await syncing?.value
    }

    /// The user left the screen: the sync stops within milliseconds; the next resumes it.
    func cancel() {
        syncing?.cancel()
        progress.cancel()
    }

    private func options() -> SyncOptions {
        var options = SyncOptions(sourceFactory: transport.sourceFactory)
        options.maxBytes = 500 << 20  // ask before more than 500 MB on a phone's plan
        return options
    }

    /// What to tell the user, by the error's code (docs/CLIENT.md, "Errors").
    nonisolated private static func failure(_ error: SyncError) -> State {
        switch error.code {
        case .cancelled: .failed("Stopped. The next check resumes where this one stopped.", canRetry: true)
        case .network, .httpStatus, .notFound:
            .failed(
                "The lessons could not be reached (\(error.url.map { $0.host ?? $0.path } ?? "no network")). Try again later.",
                canRetry: true)
        case .diskFull: .failed("The device is full: free some space, then try again.", canRetry: true)
        case .untrusted, .rolledBack, .corruptDownload:
            .failed("The lessons received were not genuine and were not used.", canRetry: true)
        case .damagedRepo: .failed("The lessons on this device are damaged: reinstall them.", canRetry: false)
        default: .failed(error.message, canRetry: false)
        }
    }

    nonisolated private static func failure(_ error: any Error) -> State {
        (error as? SyncError).map(failure) ?? .failed("\(error)", canRetry: false)
    }
}
