/// Numbers as people read them in summaries and progress lines: sizes in decimal units
/// (`12.4 MB`, as disks and object stores count), counts with thousands separators,
/// durations as clock times. Raw numbers belong to `--json` output only.
package enum HumanFormat {
    private static let units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"]

    /// `512 B`, `1.5 kB`, `12.4 MB`, `3.07 GB`: three significant digits from 1 kB up.
    package static func bytes(_ count: Int64) -> String {
        guard count >= 1000 || count <= -1000 else { return "\(count) B" }
        var value = Double(count.magnitude)
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0
        return (count < 0 ? "-" : "") + value.fixedDecimals(decimals) + " " + units[unit]
    }

    /// `1,234,567`.
    package static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `1 file`, `1,234 files`: a count and its noun, plural (with an s) unless one.
    package static func count(_ value: Int, _ noun: String) -> String {
        "\(count(value)) \(noun)\(value == 1 ? "" : "s")"
    }

    /// `0:07`, `12:34`, `1:02:03`.
    package static func duration(seconds: Double) -> String {
        let total = seconds.isFinite ? Int(max(0, seconds.rounded())) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}
