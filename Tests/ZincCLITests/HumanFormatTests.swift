import Testing
import Zinc

@testable import ZincCLI

/// Sizes, counts and times as summaries and progress lines print them.
@Suite struct HumanFormatTests {
    @Test func sizesInDecimalUnitsWithThreeDigits() {
        #expect(HumanFormat.bytes(0) == "0 B")
        #expect(HumanFormat.bytes(999) == "999 B")
        #expect(HumanFormat.bytes(1000) == "1.00 kB")
        #expect(HumanFormat.bytes(12_345) == "12.3 kB")
        #expect(HumanFormat.bytes(12_400_000) == "12.4 MB")
        #expect(HumanFormat.bytes(999_960) == "1.00 MB")
        #expect(HumanFormat.bytes(123_456_789_012) == "123 GB")
        #expect(HumanFormat.bytes(Int64.max) == "9.22 EB")
        #expect(HumanFormat.bytes(-2500) == "-2.50 kB")
    }

    @Test func countsWithSeparators() {
        #expect(HumanFormat.count(0) == "0")
        #expect(HumanFormat.count(999) == "999")
        #expect(HumanFormat.count(1000) == "1,000")
        #expect(HumanFormat.count(1_234_567) == "1,234,567")
        #expect(HumanFormat.count(-12_345) == "-12,345")
    }

    @Test func durationsAsClockTimes() {
        #expect(HumanFormat.duration(seconds: 0.4) == "0:00")
        #expect(HumanFormat.duration(seconds: 7) == "0:07")
        #expect(HumanFormat.duration(seconds: 754) == "12:34")
        #expect(HumanFormat.duration(seconds: 3723) == "1:02:03")
        #expect(HumanFormat.duration(seconds: .infinity) == "0:00")
    }

    @Test func progressLinesShowTimeLeftAndFitTheWidth() {
        let line = ProgressBar.line(
            "Checking objects", files: 1500, of: 3000, bytes: 50_000_000, of: 100_000_000,
            elapsed: .seconds(10), width: 120)
        #expect(line == "Checking objects  [##########..........]  1,500/3,000 files  50.0 MB/100 MB  5.00 MB/s  ETA 0:10")
        let narrow = ProgressBar.line(
            "Checking objects", files: 1500, of: 3000, bytes: 50_000_000, of: 100_000_000,
            elapsed: .seconds(10), width: 60)
        #expect(narrow == "Checking objects  1,500/3,000 files  ETA 0:10")
        let early = ProgressBar.line("Hashing", files: 1, of: 3000, bytes: 0, of: 0, elapsed: .milliseconds(200), width: 80)
        #expect(early == "Hashing  [....................]  1/3,000 files")
        // An archive's download: its files land at its end, its bytes show the progress.
        let archive = ProgressBar.line(
            "Syncing com.example.app.Levels-12", files: 0, of: 355, bytes: 40_000_000, of: 100_000_000,
            elapsed: .seconds(10), width: 60)
        #expect(archive == "Syncing com.example.app.Levels-12  40.0 MB/100 MB  ETA 0:15")
        // The whole sync's bytes, shown when there is room.
        let wide = ProgressBar.line(
            "Syncing com.example.app.Levels-12", files: 0, of: 355, bytes: 40_000_000, of: 100_000_000,
            elapsed: .seconds(10), width: 160, note: "52.0 MB/300 MB in all")
        #expect(wide.hasSuffix("ETA 0:15  52.0 MB/300 MB in all"))
        let tight = ProgressBar.line(
            "Syncing com.example.app.Levels-12", files: 0, of: 355, bytes: 40_000_000, of: 100_000_000,
            elapsed: .seconds(10), width: 60, note: "52.0 MB/300 MB in all")
        #expect(tight == archive)
    }
}
