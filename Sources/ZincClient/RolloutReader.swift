import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rollout of a tracked bundle's distribution as this install sees it (FORMAT.md,
/// "Rollouts"): fetched beside the index with one conditional request, judged, kept for
/// `status`, and turned into the version the install follows. A file the client cannot
/// trust moves nobody: the install stays on the version it holds.
struct RolloutReader {
    let repo: Repo
    /// The catalog's trusted keys; with any, the file must be signed by one and unexpired.
    let keys: [PublicKey]
    /// Seconds since 1970: the steps are evaluated with the device's clock.
    let now: Int64

    /// What the client makes of a distribution's rollout file.
    enum Verdict: Equatable {
        /// The catalog has none for the distribution.
        case none
        case trusted(Rollout)
        /// Why the file cannot be trusted.
        case untrusted(String)
    }

    /// Fetches the rollout file of `tracked` (with the validator of the one kept), judges
    /// it against the index's `entry`, and keeps a trusted one, with its serial and
    /// validator in `tracked`. A missing file is no rollout; one that cannot be fetched
    /// is not trusted.
    func refresh(_ tracked: inout RepoState.TrackedBundle, entry: CatalogIndex.BundleEntry, via chain: SourceChain) async throws
        -> Verdict
    {
        let kept = repo.rolloutFile(tracked.catalog, bundle: tracked.bundle, distro: tracked.distro)
        let remote = RolloutFile.path(bundle: tracked.bundle, distro: tracked.distro)
        let answer: SourceChain.OptionalFile
        do {
            answer = try await chain.fetchOptional(
                remote, etags: access(kept, F_OK) == 0 ? tracked.rolloutETags : [:], limit: Int64(RolloutFile.sizeLimit))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return .untrusted("it could not be fetched: \(error)")
        }
        switch answer {
        case .missing:
            unlink(kept)
            tracked.rolloutETags = [:]
            return .none
        case .unchanged:
            // Judged again: the clock may have passed its expiry, the index dropped a version.
            guard let bytes = try AtomicFile.read(kept, limit: Int64(RolloutFile.sizeLimit)) else { return .none }
            return judge(bytes, of: tracked, entry: entry, location: kept)
        case .found(let bytes, let url, let etag):
            let verdict = judge(bytes, of: tracked, entry: entry, location: catalogFileURL(url, remote))
            guard case .trusted(let rollout) = verdict else { return verdict }
            try AtomicFile.write(bytes, to: kept)
            tracked.rolloutETags = etag.map { [url: $0] } ?? [:]
            tracked.rolloutSerial = max(tracked.rolloutSerial ?? 0, rollout.serial)
            return verdict
        }
    }

    /// The kept file of `tracked` judged again, with no request: what `status` says.
    func kept(_ tracked: RepoState.TrackedBundle, entry: CatalogIndex.BundleEntry) throws -> Verdict {
        let kept = repo.rolloutFile(tracked.catalog, bundle: tracked.bundle, distro: tracked.distro)
        guard let bytes = try AtomicFile.read(kept, limit: Int64(RolloutFile.sizeLimit)) else { return .none }
        return judge(bytes, of: tracked, entry: entry, location: kept)
    }

    /// Trusts `bytes` (read from `location`) only when they parse, carry a trusted
    /// signature where the catalog has keys, describe `tracked`'s own distribution in its
    /// catalog, name versions the index lists, have not expired (with keys) and are no
    /// older than the last accepted.
    private func judge(_ bytes: [UInt8], of tracked: RepoState.TrackedBundle, entry: CatalogIndex.BundleEntry, location: String)
        -> Verdict
    {
        let rollout: Rollout
        do {
            rollout =
                keys.isEmpty
                ? try RolloutFile.parse(bytes, path: location) : try RolloutFile.verified(bytes, path: location, trusted: keys)
            try RolloutFile.checkPlace(
                of: rollout, file: RolloutFile.path(bundle: tracked.bundle, distro: tracked.distro), catalogID: tracked.catalog,
                path: location)
        } catch {
            return .untrusted("\(error)")
        }
        for version in [rollout.control, rollout.candidate] where !entry.versions.contains(version) {
            return .untrusted("\(location) names version \(version), which the index does not list")
        }
        if !keys.isEmpty, rollout.state != .complete, rollout.isExpired(at: now) {
            return .untrusted("\(location) expired at \(rollout.expiresAt), before this device's clock")
        }
        if let accepted = tracked.rolloutSerial, rollout.serial < accepted {
            return .untrusted("\(location) has serial \(rollout.serial), older than the \(accepted) accepted before")
        }
        return .trusted(rollout)
    }

    /// The version an install holding `held` follows under `verdict`, where the
    /// distribution's pointer names `pointer`.
    func choice(_ verdict: Verdict, held: Int?, pointer: Int, install: InstallIdentity) -> RolloutChoice {
        switch verdict {
        case .none: RolloutSelection.choose(for: install, rollout: nil, pointer: pointer, at: now)
        case .trusted(let rollout): RolloutSelection.choose(for: install, rollout: rollout, pointer: pointer, at: now)
        case .untrusted(let why): RolloutChoice(version: held ?? pointer, reason: .untrusted(why))
        }
    }
}
