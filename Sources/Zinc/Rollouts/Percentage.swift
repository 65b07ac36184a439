/// A share of the installs to two decimals, from 0.00 to 100.00, held in hundredths of a
/// percent (basis points) so that `RolloutSelection` compares integers and every client
/// draws the same line.
public struct Percentage: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// 0 to 10,000.
    public let basisPoints: Int

    public static let zero = Percentage(checkedBasisPoints: 0)
    public static let all = Percentage(checkedBasisPoints: 10_000)

    private init(checkedBasisPoints: Int) { basisPoints = checkedBasisPoints }

    public init?(basisPoints: Int) {
        guard (0...10_000).contains(basisPoints) else { return nil }
        self.basisPoints = basisPoints
    }

    /// Reads what a person types: `10`, `2.5` or `0.25`, at most two decimals, 0 to 100.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard (1...3).contains(whole.count), fraction.count <= 2, parts.count == 1 || !fraction.isEmpty,
            whole.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            let units = Int(whole), let hundredths = Int(fraction.isEmpty ? "0" : fraction)
        else { return nil }
        self.init(basisPoints: units * 100 + (fraction.count == 1 ? hundredths * 10 : hundredths))
    }

    /// Reads the file's spelling, exactly two decimals (`5.00`), refusing every other.
    init?(fileText text: some StringProtocol) {
        guard let value = Percentage(parsing: text), value.description == text else { return nil }
        self = value
    }

    /// Two decimals: `5.00`, `0.25`, `100.00`.
    public var description: String {
        let fraction = basisPoints % 100
        return "\(basisPoints / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    public static func < (lhs: Percentage, rhs: Percentage) -> Bool { lhs.basisPoints < rhs.basisPoints }
}
