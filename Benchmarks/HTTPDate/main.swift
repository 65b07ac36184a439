// Formats and parses the same dates with the current `HTTPDate`/`UTCTime` (the C
// library's gmtime_r, timegm and strftime) and with the Swift arithmetic they replaced
// (`Baseline.swift`), checks that both give the same answers, and prints the time per
// call of each and the ratio. Run by `Benchmarks/http-date`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 300_000 : 300_000
// Dates from 1900 to 2100, from a fixed seed.
var state: UInt64 = 0x9E37_79B9_7F4A_7C15
let seconds = (0..<count).map { _ -> Int in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int(state >> 33) % 6_311_433_600 - 2_208_988_800
}
let imf = seconds.map(BaselineHTTPDate.format)
let rfc850 = seconds.map { rfc850Form(BaselineHTTPDate.format(secondsSinceEpoch: $0)) }

/// `Sun, 06 Nov 1994 08:49:37 GMT` as `Sunday, 06-Nov-94 08:49:37 GMT` (the weekday is not checked).
func rfc850Form(_ date: String) -> String {
    let f = date.split(separator: " ")
    return "Sunday, \(f[1])-\(f[2])-\(f[3].suffix(2)) \(f[4]) GMT"
}

var mismatches = 0
for i in 0..<count {
    if HTTPDate.format(secondsSinceEpoch: seconds[i]) != imf[i] { mismatches += 1 }
    if AccessLogEntry.timestamp(seconds[i]) != baselineLogTimestamp(seconds[i]) { mismatches += 1 }
    if HTTPDate.parse(imf[i]) != seconds[i] || BaselineHTTPDate.parse(imf[i]) != seconds[i] { mismatches += 1 }
    if HTTPDate.parse(rfc850[i]) != BaselineHTTPDate.parse(rfc850[i]) { mismatches += 1 }
}
for hostile in ["Mon, 31 Apr 2000 00:00:00 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun Nov  6 08:49:37 1994", "", "a b c d e f"]
where HTTPDate.parse(hostile) != BaselineHTTPDate.parse(hostile) {
    mismatches += 1
}
guard mismatches == 0 else {
    print("the two implementations disagree on \(mismatches) answers")
    exit(1)
}

/// Nanoseconds per call of `body` over every sample.
func nanosecondsPerCall(_ body: (Int) -> Int) -> Double {
    var sink = 0
    let start = ContinuousClock.now
    for i in 0..<count { sink &+= body(i) }
    let (s, attoseconds) = (ContinuousClock.now - start).components
    if sink == 42 { print("") }  // keeps the results alive
    return (Double(s) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
}

func row(_ name: String, old: (Int) -> Int, new: (Int) -> Int) {
    // Turns taken, best of seven each: a burst of load elsewhere hits both alike.
    var (o, n) = (Double.infinity, Double.infinity)
    for _ in 0..<7 {
        o = min(o, nanosecondsPerCall(old))
        n = min(n, nanosecondsPerCall(new))
    }
    let pad = { (text: String, width: Int) in String(repeating: " ", count: max(0, width - text.count)) + text }
    print(pad(name, 22), pad(String(Int(o.rounded())), 10), pad(String(Int(n.rounded())), 10),
          pad(String(Double(Int(n / o * 100)) / 100), 8))
}

print("\(count) dates from 1900 to 2100; nanoseconds per call, best of 7 runs taking turns")
print("                  call   baseline  C library  new/old")
row("format (IMF-fixdate)", old: { BaselineHTTPDate.format(secondsSinceEpoch: seconds[$0]).utf8.count },
    new: { HTTPDate.format(secondsSinceEpoch: seconds[$0]).utf8.count })
row("access-log timestamp", old: { baselineLogTimestamp(seconds[$0]).utf8.count }, new: { AccessLogEntry.timestamp(seconds[$0]).utf8.count })
row("parse IMF-fixdate", old: { BaselineHTTPDate.parse(imf[$0]) ?? 0 }, new: { HTTPDate.parse(imf[$0]) ?? 0 })
row("parse RFC 850", old: { BaselineHTTPDate.parse(rfc850[$0]) ?? 0 }, new: { HTTPDate.parse(rfc850[$0]) ?? 0 })
