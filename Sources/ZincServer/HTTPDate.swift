/// HTTP-date (RFC 9110 §5.6.7): generated as IMF-fixdate, accepted in all three historic forms
/// because the RFC requires recipients to understand the obsolete ones too.
package enum HTTPDate {
    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    static func format(secondsSinceEpoch seconds: Int) -> String {
        let t = CivilTime(secondsSinceEpoch: seconds)
        return "\(CivilTime.weekdayNames[t.weekday]), \(CivilTime.twoDigits(t.day)) "
            + "\(CivilTime.monthNames[t.month - 1]) \(t.year) "
            + "\(CivilTime.twoDigits(t.hour)):\(CivilTime.twoDigits(t.minute)):\(CivilTime.twoDigits(t.second)) GMT"
    }

    /// Seconds since the epoch, or nil when the value is not an HTTP-date (callers then ignore
    /// the header, as the RFC says).
    package static func parse(_ value: String) -> Int? {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true)
        let time: CivilTime?
        switch fields.count {
        case 6:  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard fields[0].hasSuffix(","), fields[5] == "GMT", fields[1].count == 2, fields[3].count == 4 else {
                return nil
            }
            time = civilTime(day: fields[1], month: fields[2], year: fields[3], clock: fields[4])
        case 4:  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let dayMonthYear = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard fields[0].hasSuffix(","), fields[3] == "GMT", dayMonthYear.count == 3,
                dayMonthYear[2].count == 2, let shortYear = Int(dayMonthYear[2])
            else { return nil }
            let year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
            time = civilTime(day: dayMonthYear[0], month: dayMonthYear[1], year: Substring(String(year)), clock: fields[2])
        case 5:  // asctime: Sun Nov  6 08:49:37 1994
            time = civilTime(day: fields[2], month: fields[1], year: fields[4], clock: fields[3])
        default:
            time = nil
        }
        guard let time, time.isValid else { return nil }
        return time.secondsSinceEpoch
    }

    private static func civilTime(day: Substring, month: Substring, year: Substring, clock: Substring) -> CivilTime? {
        let hms = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 }),
            let monthIndex = CivilTime.monthNames.firstIndex(where: { $0 == month }),
            let d = decimal(day), let y = decimal(year),
            let h = decimal(hms[0]), let m = decimal(hms[1]), let s = decimal(hms[2])
        else { return nil }
        return CivilTime(year: y, month: monthIndex + 1, day: d, hour: h, minute: m, second: s)
    }

    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
