/// A UTC calendar time, computed arithmetically so that formatting log and header dates needs
/// neither the C library's `gmtime` (not portable in its thread-safety) nor Foundation's
/// formatters (slow and locale-sensitive).
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
