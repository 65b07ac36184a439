import Zinc

/// `update_distro --json` and `promote --json`: {"bundle", "distro", "version",
/// "previous" (or null), "changed"}, and for `promote` the distribution it copied
/// (`from`).
struct DistroChangeReport: Encodable {
    let bundle: String
    let distro: String
    let change: DistroChange
    var from: String?

    private enum CodingKeys: CodingKey { case bundle, distro, version, previous, changed, from }

    func encode(to encoder: any Encoder) throws {
        let (version, previous, changed): (Int, Int?, Bool)
        switch change {
        case .created(let v): (version, previous, changed) = (v, nil, true)
        case .updated(let v, let was): (version, previous, changed) = (v, was, true)
        case .unchanged(let v): (version, previous, changed) = (v, v, false)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundle, forKey: .bundle)
        try container.encode(distro, forKey: .distro)
        try container.encode(version, forKey: .version)
        try container.encode(previous, forKey: .previous)
        try container.encode(changed, forKey: .changed)
        try container.encodeIfPresent(from, forKey: .from)
    }
}
