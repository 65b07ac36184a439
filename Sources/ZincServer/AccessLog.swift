/// One access-log line in the Common Log Format written by nginx and Apache, so the usual log
/// tools read it: `host - - [day/Mon/year:HH:MM:SS +0000] "request line" status bytes`, followed
/// by the duration in seconds (like nginx's `$request_time`).
struct AccessLogEntry {
    var remoteAddress: String
    /// When the request head arrived, in seconds since the epoch; written in UTC.
    var receivedAt: Int
    /// Method, target and version as received; nil when the request could not be parsed.
    var requestLine: String?
    var status: UInt
    /// Body bytes the socket accepted, not the `Content-Length` promised: a client that went
    /// away shows how much it really got.
    var bodyBytes: Int
    var durationNanoseconds: Int64

    var line: String {
        let request = requestLine.map(Self.escaped) ?? "-"
        return
            "\(remoteAddress) - - [\(Self.timestamp(receivedAt))] \"\(request)\" \(status) \(bodyBytes) \(Self.seconds(durationNanoseconds))"
    }

    /// `06/Nov/1994:08:49:37 +0000`
    static func timestamp(_ secondsSinceEpoch: Int) -> String {
        let t = UTCTime(secondsSinceEpoch: secondsSinceEpoch)
        return t.formatted(timestampFormats[t.month])
    }

    /// The `strftime` format of each month.
    private static let timestampFormats = UTCTime.monthNames.map { "%d/\($0)/%Y:%H:%M:%S +0000" }

    /// Milliseconds precision, as nginx writes it.
    private static func seconds(_ nanoseconds: Int64) -> String {
        let milliseconds = max(0, nanoseconds) / 1_000_000
        let fraction = milliseconds % 1000
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(milliseconds / 1000).\(padding)\(fraction)"
    }

    /// The request line is client input: quotes, backslashes, control and non-ASCII bytes are
    /// written as `\xHH` (as nginx does) so a request cannot forge or break log lines.
    private static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "\\x" + (byte < 0x10 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}
