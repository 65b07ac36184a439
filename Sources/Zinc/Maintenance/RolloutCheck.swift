/// `verify`'s check of the rollout files: each parses, sits at the path its bundle and
/// distribution give, names versions the index lists, and (with trusted keys) is signed
/// by one of them and has not expired. A problem is reported, never thrown: a client
/// moves nobody on such a file, and the rest of the catalog is still worth checking.
extension CatalogVerifier {
    /// Returns the candidates of the rollouts that apply, whose archives must exist.
    func checkRollouts(index: CatalogIndex, now: Int64 = WallClock.nowMilliseconds() / 1000) -> Set<BundleVersion> {
        let files: [String]
        do {
            files = try RolloutFile.list(in: catalog.storage)
        } catch {
            report(RolloutFile.folder, Self.describe(error))
            return []
        }
        var candidates = Set<BundleVersion>()
        for file in files {
            do {
                guard let bytes = try catalog.storage.read(file) else { continue }
                let path = catalog.storage.location + "/" + file
                let rollout =
                    trustedKeys.isEmpty
                    ? try RolloutFile.parse(bytes, path: path) : try RolloutFile.verified(bytes, path: path, trusted: trustedKeys)
                try RolloutFile.checkPlace(of: rollout, file: file, catalogID: index.id, path: path)
                let listed = index.bundles[rollout.bundle]?.versions ?? []
                for version in [rollout.control, rollout.candidate] where !listed.contains(version) {
                    report(file, "names version \(version) of '\(rollout.bundle)', which the index does not list")
                }
                if !trustedKeys.isEmpty, rollout.state != .complete, rollout.isExpired(at: now) {
                    report(file, "expired at \(rollout.expiresAt): clients that trust keys move nobody; `zinc sign` renews it")
                }
                if rollout.applies(whilePointerIs: index.bundles[rollout.bundle]?.distributions[rollout.distro]) {
                    candidates.insert(BundleVersion(bundle: rollout.bundle, version: rollout.candidate))
                }
            } catch {
                report(file, Self.describe(error))
            }
        }
        return candidates
    }
}
