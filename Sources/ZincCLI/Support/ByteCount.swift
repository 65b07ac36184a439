import ArgumentParser

/// A number of bytes as people type it: `500000`, `500k`, `50MB`, `1.5G` (decimal units,
/// as `zinc` prints sizes; `KiB`, `MiB`, `GiB` for binary ones).
struct ByteCount: ExpressibleByArgument {
    let value: Int64

    private static let units: [(suffix: String, factor: Double)] = [
        ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("tib", 1_099_511_627_776),
        ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12), ("k", 1e3), ("m", 1e6), ("g", 1e9), ("t", 1e12), ("b", 1),
    ]

    init?(argument: String) {
        let text = argument.lowercased()
        let unit = Self.units.first { text.hasSuffix($0.suffix) }
        let number = text.dropLast(unit?.suffix.count ?? 0)
        guard let amount = Double(number), amount.isFinite, amount >= 0 else { return nil }
        let bytes = (amount * (unit?.factor ?? 1)).rounded()
        guard bytes < 9.2e18 else { return nil }
        value = Int64(bytes)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
