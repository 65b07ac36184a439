// The implementation `UTCTime` replaced, kept as the benchmark's baseline: calendar
// arithmetic in Swift (Howard Hinnant's algorithms) and string interpolation. Not part of
// any target; `Benchmarks/http-date` compiles it beside the current code.

/// A UTC calendar time, computed arithmetically.
struct CivilTime: Equatable {
    var year: Int
    /// 1 = January.
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Howard Hinnant's `civil_from_days`, valid for the whole proleptic Gregorian calendar.
    init(secondsSinceEpoch seconds: Int) {
        let days = Self.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = Self.floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(
            year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
            month: month,
            day: dayOfYear - (153 * monthIndex + 2) / 5 + 1,
            hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60,
            second: secondOfDay % 60
        )
    }

    /// Howard Hinnant's `days_from_civil`.
    var secondsSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = Self.floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// 0 = Sunday; 1970-01-01 was a Thursday.
    var weekday: Int {
        let days = Self.floorDivide(secondsSinceEpoch, 86_400)
        return ((days + 4) % 7 + 7) % 7
    }

    /// Rejects impossible dates such as 31 April by checking that the fields survive a round trip.
    var isValid: Bool {
        (1...12).contains(month) && (1...31).contains(day) && (0...23).contains(hour)
            && (0...59).contains(minute) && (0...59).contains(second)
            && CivilTime(secondsSinceEpoch: secondsSinceEpoch) == self
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}

/// The former `HTTPDate`, on `CivilTime`.
enum BaselineHTTPDate {
    static func format(secondsSinceEpoch seconds: Int) -> String {
        let t = CivilTime(secondsSinceEpoch: seconds)
        return "\(CivilTime.weekdayNames[t.weekday]), \(CivilTime.twoDigits(t.day)) "
            + "\(CivilTime.monthNames[t.month - 1]) \(t.year) "
            + "\(CivilTime.twoDigits(t.hour)):\(CivilTime.twoDigits(t.minute)):\(CivilTime.twoDigits(t.second)) GMT"
    }

    /// Seconds since the epoch, or nil when the value is not an HTTP-date (callers then ignore
    /// the header, as the RFC says).
    static func parse(_ value: String) -> Int? {
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

/// The former access-log timestamp.
func baselineLogTimestamp(_ seconds: Int) -> String {
    let t = CivilTime(secondsSinceEpoch: seconds)
    return "\(CivilTime.twoDigits(t.day))/\(CivilTime.monthNames[t.month - 1])/\(t.year):"
        + "\(CivilTime.twoDigits(t.hour)):\(CivilTime.twoDigits(t.minute)):\(CivilTime.twoDigits(t.second)) +0000"
}
