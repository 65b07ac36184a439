import Foundation
import Testing
import ZincTestSupport

@testable import Zinc

@Suite struct CompressibilityProbeTests {
    func probe(_ bytes: [UInt8]) throws -> Bool {
        let dir = try TemporaryDirectory()
        let path = try dir.write("f", bytes)
        return try CompressibilityProbe.isSurelyIncompressible(PosixFile.open(path), size: Int64(bytes.count))
    }

    /// 16-bit PCM of a random walk, like recorded audio: gzips to about 0.98.
    func randomWalkAudio(_ samples: Int) -> [UInt8] {
        var value: Int32 = 0
        var out = [UInt8]()
        var noise = SampleContent.noise(samples * 2, seed: 5).makeIterator()
        for _ in 0..<samples {
            let step = Int32(Int16(bitPattern: UInt16(noise.next()!) | UInt16(noise.next()!) << 8)) % 900
            value = max(-32768, min(32767, value + step))
            out.append(UInt8(truncatingIfNeeded: value))
            out.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return out
    }

    @Test func randomAndAudioDataAreSkipped() throws {
        #expect(try probe(SampleContent.noise(300_000, seed: 1)))
        let audio = randomWalkAudio(150_000)
        #expect(try probe(audio))
        #expect(Double(GzipCompressor.compress(audio).count) / Double(audio.count) > 0.85)
    }

    @Test func compressibleDataGoesThroughTheFullRule() throws {
        #expect(try !probe(SampleContent.text(300_000)))
        // Noise with a compressible stretch: gzips below the threshold, so the probe must be unsure.
        var mixed = [UInt8]()
        for i in 0..<40 { mixed += i % 4 == 0 ? SampleContent.text(12_000) : SampleContent.noise(12_000, seed: UInt64(i)) }
        #expect(Double(GzipCompressor.compress(mixed).count) / Double(mixed.count) <= 0.85)
        #expect(try !probe(mixed))
    }

    @Test func smallFilesAreNotProbedByWindows() throws {
        #expect(try !probe(SampleContent.noise(20_000, seed: 2)))
    }

    /// Small files are judged on all their bytes, by statistics alone.
    func probeWhole(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { CompressibilityProbe.isSurelyIncompressible($0) }
    }

    @Test func wholeSmallFilesOfNoiseAreSkipped() {
        #expect(probeWhole(SampleContent.noise(3000, seed: 1)))
        #expect(probeWhole(SampleContent.noise(600_000, seed: 2)))
        #expect(probeWhole(SampleContent.noise(1000, seed: 3)))
        // Too short to be worth the statistics: deflating it is cheap anyway.
        #expect(!probeWhole(SampleContent.noise(200, seed: 4)))
    }

    /// A yes must be right whatever the size: what the probe skips never gzips to the
    /// threshold. Noise, noise behind a compressible header (a JPEG's tables, a PNG's
    /// chunks) and noise of a few byte values, from the smallest size probed up.
    @Test func aYesIsNeverWrong() {
        var yes = 0
        for size in stride(from: CompressibilityProbe.smallestContentProbed, through: 4096, by: 97) {
            let seed = UInt64(size)
            let header = Array(SampleContent.text(size / 8))
            let fewValues = SampleContent.noise(size, seed: seed).map { $0 & 0x7F }
            for content in [
                SampleContent.noise(size, seed: seed), header + SampleContent.noise(size - header.count, seed: seed), fewValues,
            ] {
                guard probeWhole(content) else { continue }
                yes += 1
                #expect(Double(GzipCompressor.compress(content).count) / Double(content.count) > 0.85, "size \(size)")
            }
        }
        // Noise passes at nearly every size: the test checks real yeses.
        #expect(yes >= 35)
    }

    @Test func wholeSmallFilesThatGzipWellAreNotSkipped() {
        #expect(!probeWhole(SampleContent.text(20_000)))
        // Noise with every other 64-byte block repeated: high entropy, but gzip saves half.
        var repeated = [UInt8]()
        for block in stride(from: 0, to: 20_000, by: 64) {
            let chunk = SampleContent.noise(64, seed: UInt64(block))
            repeated += chunk + chunk
        }
        #expect(Double(GzipCompressor.compress(repeated).count) / Double(repeated.count) <= 0.85)
        #expect(!probeWhole(repeated))
        // A fifth of text in noise: gzips to about 0.82.
        let mixed = SampleContent.noise(16_000, seed: 7) + SampleContent.text(4_000)
        #expect(Double(GzipCompressor.compress(mixed).count) / Double(mixed.count) <= 0.85)
        #expect(!probeWhole(mixed))
    }

    /// The four-table count and the looked-up c log2 c give the order-0 entropy as
    /// defined, the sum of -p log2 p over the byte values, to within rounding. Lengths
    /// not a multiple of four exercise the bytes counted after the last group of four;
    /// content of more than 4,096 bytes of one value, a count past the table.
    @Test func entropyIsTheDefinition() {
        func definition(_ bytes: [UInt8]) -> Double {
            var counts = [Int](repeating: 0, count: 256)
            for byte in bytes { counts[Int(byte)] += 1 }
            return counts.reduce(0.0) { sum, count in
                count == 0 ? sum : sum - Double(count) / Double(bytes.count) * log2(Double(count) / Double(bytes.count))
            }
        }
        for size in [0, 1, 2, 3, 4, 5, 7, 255, 256, 1023, 4097, 70_001] {
            for content in [SampleContent.noise(size, seed: UInt64(size)), SampleContent.text(size), [UInt8](repeating: 7, count: size)] {
                let entropy = content.withUnsafeBytes { CompressibilityProbe.entropy($0) }
                #expect(abs(entropy - definition(content)) < 1e-12, "size \(size)")
            }
        }
    }

    /// The whole-sequence loads count exactly what shifting the bytes in one by one
    /// counts, slot for slot: the first byte of a sequence is its lowest.
    @Test func repeatRateIsTheBytewiseCount() {
        func bytewise(_ bytes: [UInt8]) -> Double {
            guard bytes.count >= 4 else { return 0 }
            let slotBits = min(16, max(12, Int.bitWidth - (bytes.count - 1).leadingZeroBitCount))
            var table = [UInt32](repeating: 0, count: 1 << slotBits)
            var repeats = 0
            var gram = UInt32(bytes[0]) << 8 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 24
            for byte in bytes[3...] {
                gram = gram >> 8 | UInt32(byte) << 24
                let slot = Int((gram &* 2_654_435_761) >> UInt32(32 - slotBits))
                if table[slot] == gram &+ 1 { repeats += 1 } else { table[slot] = gram &+ 1 }
            }
            return Double(repeats) / Double(bytes.count - 3)
        }
        for size in [0, 3, 4, 5, 1000, 4097, 70_001] {
            var repeated = SampleContent.noise(size / 2, seed: UInt64(size))
            repeated += repeated
            for content in [SampleContent.noise(size, seed: UInt64(size)), SampleContent.text(size), repeated] {
                let rate = content.withUnsafeBytes { CompressibilityProbe.repeatRate($0) }
                #expect(rate.bitPattern == bytewise(content).bitPattern, "size \(size)")
            }
        }
    }
}
