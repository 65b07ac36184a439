/// HTTP-date (RFC 9110 §5.6.7): generated as IMF-fixdate, accepted in all three historic forms
/// because the RFC requires recipients to understand the obsolete ones too. The parser is
/// strict (fixed field widths, digits only, English names, GMT) and leaves the calendar to
/// the C library through `UTCTime`.
package enum HTTPDate {
    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    static func format(secondsSinceEpoch seconds: Int) -> String {
        let t = UTCTime(secondsSinceEpoch: seconds)
        return t.formatted(formats[t.weekday * 12 + t.month])
    }

    /// The `strftime` format of each weekday and month, by `weekday * 12 + month`.
    private static let formats = UTCTime.weekdayNames.flatMap { weekday in
        UTCTime.monthNames.map { "\(weekday), %d \($0) %Y %H:%M:%S GMT" }
    }

    /// Seconds since the epoch, or nil when the value is not an HTTP-date (callers then ignore
    /// the header, as the RFC says).
    package static func parse(_ value: String) -> Int? {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true)
        let time: UTCTime?
        switch fields.count {
        case 6:  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard fields[0].hasSuffix(","), fields[5] == "GMT", fields[1].count == 2, fields[3].count == 4 else {
                return nil
            }
            time = utcTime(day: fields[1], month: fields[2], year: decimal(fields[3]), clock: fields[4])
        case 4:  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let dayMonthYear = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard fields[0].hasSuffix(","), fields[3] == "GMT", dayMonthYear.count == 3,
                dayMonthYear[2].count == 2, let shortYear = decimal(dayMonthYear[2])
            else { return nil }
            time = utcTime(
                day: dayMonthYear[0], month: dayMonthYear[1], year: shortYear < 70 ? 2000 + shortYear : 1900 + shortYear,
                clock: fields[2])
        case 5:  // asctime: Sun Nov  6 08:49:37 1994
            time = utcTime(day: fields[2], month: fields[1], year: decimal(fields[4]), clock: fields[3])
        default:
            time = nil
        }
        return time?.secondsSinceEpoch
    }

    private static func utcTime(day: Substring, month: Substring, year: Int?, clock: Substring) -> UTCTime? {
        let hms = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 }),
            let monthIndex = UTCTime.monthNames.firstIndex(where: { $0 == month }),
            let d = decimal(day), let year,
            let h = decimal(hms[0]), let m = decimal(hms[1]), let s = decimal(hms[2])
        else { return nil }
        return UTCTime(year: year, month: monthIndex + 1, day: d, hour: h, minute: m, second: s)
    }

    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
