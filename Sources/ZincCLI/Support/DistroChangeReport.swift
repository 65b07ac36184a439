import Zinc

extension DistroChange {
    /// `update_distro --json` and `promote --json`: {"bundle", "distro", "version",
    /// "previous" (or null), "changed"}, plus whatever `extra` fields the command adds.
    func json(bundle: String, distro: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        let (version, previous, changed): (Int, Int?, Bool)
        switch self {
        case .created(let v): (version, previous, changed) = (v, nil, true)
        case .updated(let v, let was): (version, previous, changed) = (v, was, true)
        case .unchanged(let v): (version, previous, changed) = (v, v, false)
        }
        return .object(
            [
                "bundle": .string(bundle), "distro": .string(distro), "version": .int(Int64(version)),
                "previous": previous.map { .int(Int64($0)) } ?? .null, "changed": .bool(changed),
            ].merging(extra) { $1 })
    }
}
