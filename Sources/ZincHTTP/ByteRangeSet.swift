/// The ranges of a `Range: bytes=…` request field as RFC 9110 spells them, `a-b,c-d`
/// (last positions inclusive): what libcurl takes as its range option, and the field's
/// value after `bytes=`.
package func byteRangeSet(_ ranges: [Range<Int64>]) -> String {
    ranges.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",")
}
