extension Double {
    /// The number with exactly `places` digits after the point, as printf's "%.Nf"
    /// writes it for durations and sizes shown to people ("1.50", "-0.25"): rounded
    /// from the exact binary value, half to even. Foundation's `String(format:)` would
    /// link ICU's tables into `zinc`.
    package func fixedDecimals(_ places: Int) -> String {
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = magnitude * scale
        // Beyond 2^52 a Double has no fractional digits left to round.
        guard scaled < 0x1p52 else { return "\(self)" }
        // `scaled` is rounded; the product's exact value is `scaled + error`, so a
        // value like 2.675 (really 2.67499999…) is not taken for a tie.
        let error = (-scaled).addingProduct(magnitude, scale)  // fused: exact
        let whole = scaled.rounded(.down)
        let aboveHalf = (scaled - whole) - 0.5
        let roundsUp = aboveHalf > 0 || (aboveHalf == 0 && (error > 0 || (error == 0 && whole.truncatingRemainder(dividingBy: 2) == 1)))
        var digits = String(UInt64(whole) + (roundsUp ? 1 : 0))
        if digits.count <= places { digits = String(repeating: "0", count: places + 1 - digits.count) + digits }
        let sign = sign == .minus ? "-" : ""
        guard places > 0 else { return sign + digits }
        return sign + digits.dropLast(places) + "." + digits.suffix(places)
    }
}
