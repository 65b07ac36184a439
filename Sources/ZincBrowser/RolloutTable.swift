import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The live rollouts of a catalog, as its page and its bundles' pages show them: which
/// distribution, its state, the control and the candidate, the share now and the steps
/// still to come, the conditions, the serial and expiry, and the last change. Every
/// field comes from a rollout file, so it goes into the page as escaped text.
extension CatalogBrowser {
    /// The rollouts that apply now, of `bundle` only when one is given: a heading and a
    /// table, or nothing when there is none. A rollout file that cannot be read shows as
    /// its error, and the rest of the page still shows.
    func rolloutSection(_ served: ServedCatalog, bundle: String? = nil) -> HTML {
        let rollouts: [Rollout]
        do {
            rollouts = try RolloutUpdate.live(in: served.catalog).filter { bundle == nil || $0.bundle == bundle }
        } catch {
            return "<h2>Rollouts</h2><p class=\"error\">\(String(describing: error))</p>"
        }
        guard !rollouts.isEmpty else { return "" }
        let now = Int64(Date().timeIntervalSince1970)
        let bundleColumn: HTML = bundle == nil ? "<th>Bundle</th>" : ""
        let rows = rollouts.map { rolloutRow($0, served, now: now, showsBundle: bundle == nil) }
        return """
            <h2>Rollouts</h2><table id="rollouts"><tr>\(bundleColumn)<th>Distribution</th><th>State</th><th>Versions</th>\
            <th class="num">Now</th><th>Steps to come</th><th>Conditions</th><th>Serial</th><th>Last change</th></tr>\(rows)</table>
            """
    }

    private func rolloutRow(_ rollout: Rollout, _ served: ServedCatalog, now: Int64, showsBundle: Bool) -> HTML {
        let key = served.key
        let bundleCell: HTML = showsBundle ? "<td><a href=\"\(urls.bundle(key, rollout.bundle))\">\(rollout.bundle)</a></td>" : ""
        let state: HTML = rollout.pausedAt.map { "paused since \(UTCMoment.describe($0))" } ?? "\(rollout.state.rawValue)"
        let versions: HTML = """
            <a href="\(urls.version(key, rollout.bundle, rollout.control))">\(rollout.control)</a> → \
            <a href="\(urls.version(key, rollout.bundle, rollout.candidate))">\(rollout.candidate)</a> \
            <a class="muted" href="\(urls.diff(key, rollout.bundle, from: rollout.control, to: rollout.candidate))">changes</a>
            """
        let toCome = rollout.state == .halted ? [] : rollout.stepsToCome(at: now)
        let onceResumed: HTML = rollout.state == .paused ? "<span class=\"muted\">once resumed</span>" : ""
        let steps: HTML =
            toCome.isEmpty
            ? "<span class=\"muted\">none</span>"
            : "\(toCome.map { step -> HTML in "\(step.percentage.description)% from \(UTCMoment.describe(step.time))<br>" })\(onceResumed)"
        var conditions = [String]()
        if let range = rollout.conditions.appVersion { conditions.append("app version \(range)") }
        if !rollout.conditions.platforms.isEmpty {
            conditions.append("platform " + rollout.conditions.platforms.joined(separator: " or "))
        }
        conditions += rollout.conditions.only.map(\.description)
        let conditionCell: HTML =
            conditions.isEmpty ? "<span class=\"muted\">every install</span>" : HTML(joining: conditions.map { "\($0)<br>" })
        let signing = rollout.keyID.map { "signed by key \($0)" } ?? "unsigned"
        let note: HTML = rollout.note.map { ": \($0)" } ?? ""
        return """
            <tr>\(bundleCell)<td>\(badges([rollout.distro]))</td><td>\(state)</td><td>\(versions)</td>\
            <td class="num">\(rollout.share(at: now).description)%</td><td>\(steps)</td><td>\(conditionCell)</td>\
            <td>\(rollout.serial)<br><span class="muted">\(signing), expires \(UTCMoment.describe(rollout.expiresAt))</span></td>\
            <td>\(rollout.action.rawValue) by \(rollout.actor) at \(UTCMoment.describe(rollout.signedAt))\(note)</td></tr>
            """
    }
}
