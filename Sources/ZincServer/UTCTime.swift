#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A UTC calendar time from the C library: `gmtime_r` and `timegm` convert, `strftime`
/// writes the digits, and fixed English tables give the day and month names, because
/// HTTP and log formats are English whatever the locale (and `%a`/`%b` follow it).
struct UTCTime {
    let secondsSinceEpoch: Int
    private var fields = tm()

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// 1000-01-01T00:00:00Z to 9999-12-31T23:59:59Z: the years `%Y` writes in four digits.
    static let representable = -30_610_224_000...253_402_300_799

    /// The time at `seconds`, moved into `representable` first (a file dated in the year
    /// 10^11 is served as of 9999, not refused).
    init(secondsSinceEpoch seconds: Int) {
        secondsSinceEpoch = min(max(seconds, Self.representable.lowerBound), Self.representable.upperBound)
        var time = time_t(secondsSinceEpoch)
        // Cannot fail inside `representable`, whose years fit `tm`'s int.
        _ = gmtime_r(&time, &fields)
    }

    /// The time of these fields (month 1 = January), or nil when they name no moment of
    /// the calendar (31 April, 25 o'clock): `timegm` would carry them into the next
    /// month, so the fields must survive the round trip.
    init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard (1000...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var asked = tm()
        asked.tm_year = Int32(year - 1900)
        asked.tm_mon = Int32(month - 1)
        asked.tm_mday = Int32(day)
        asked.tm_hour = Int32(hour)
        asked.tm_min = Int32(minute)
        asked.tm_sec = Int32(second)
        var normalized = asked  // timegm normalizes its argument in place
        self.init(secondsSinceEpoch: Int(timegm(&normalized)))
        guard fields.tm_year == asked.tm_year, fields.tm_mon == asked.tm_mon, fields.tm_mday == asked.tm_mday,
            fields.tm_hour == asked.tm_hour, fields.tm_min == asked.tm_min, fields.tm_sec == asked.tm_sec
        else { return nil }
    }

    /// 0 = Sunday.
    var weekday: Int { Int(fields.tm_wday) }
    /// 0 = January.
    var month: Int { Int(fields.tm_mon) }

    /// `strftime` with `format`, which holds only numeric conversions (`%d %Y %H:%M:%S`):
    /// names come from the tables, in formats the callers prepare once per name.
    func formatted(_ format: String) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            var copy = fields
            let count = strftime(buffer.baseAddress!, buffer.count, format, &copy)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
    }
}
