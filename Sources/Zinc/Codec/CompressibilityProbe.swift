import CZlib

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cheap look at whether gzip could possibly save the 15 % the format asks for, so
/// JPEGs, PNGs, audio and already-compressed data are not deflated just to be thrown
/// away (deflating random data is some twenty times slower than hashing it).
///
/// It samples a few small windows spread over the file, in two stages:
/// 1. Statistics: a window is incompressible when its byte entropy is at least 7.2 bits
///    (Huffman coding can save at most ~10 %) and under 2 % of its 4-byte sequences
///    repeat (LZ matches can save about that much more). All windows passing is a yes.
/// 2. Otherwise (audio, say, whose quiet passages lower the entropy) the windows are
///    deflated for real, at level 1 and without the history the whole stream would
///    have, which overstates the whole file's ratio by a few percent. A mean window
///    ratio of at least 0.93 is a yes: measured audio samples at 0.95 or more, while a
///    file that truly gzips to 0.82 samples at 0.76.
/// Anything else sends the file through the exact whole-file rule.
///
/// Small files held in memory get the statistics of stage 1 over all their bytes (no
/// sampling, so nothing is missed); stage 2 would cost as much as deflating them.
enum CompressibilityProbe {
    static let windowSize = 4096
    static let windowCount = 8
    static let minimumEntropy = 7.2
    static let maximumRepeatRate = 0.02
    static let minimumMeanDeflateRatio = 0.93

    static func isSurelyIncompressible(_ file: PosixFile, size: Int64) throws -> Bool {
        // Small files are cheap to deflate outright.
        guard size >= Int64(windowSize * windowCount) else { return false }
        let windows = UnsafeMutableRawBufferPointer.allocate(byteCount: windowSize * windowCount, alignment: 16)
        defer { windows.deallocate() }
        let stride = (size - Int64(windowSize)) / Int64(windowCount - 1)
        for i in 0..<windowCount {
            let window = UnsafeMutableRawBufferPointer(rebasing: windows[(i * windowSize)..<((i + 1) * windowSize)])
            guard try file.read(into: window, at: Int64(i) * stride) == windowSize else { return false }
        }
        let samples = (0..<windowCount).map { UnsafeRawBufferPointer(rebasing: windows[($0 * windowSize)..<(($0 + 1) * windowSize)]) }
        if samples.allSatisfy({ entropy($0) >= minimumEntropy && repeatRate($0) <= maximumRepeatRate }) { return true }
        let meanRatio = samples.reduce(0.0) { $0 + deflateRatio($1) } / Double(windowCount)
        return meanRatio >= minimumMeanDeflateRatio
    }

    /// Below this, deflating costs next to nothing. Above it the statistics are exact for
    /// the bytes at hand, however few: no Huffman code of these bytes is shorter than
    /// their entropy, so a yes is as sure for 300 bytes as for 300 KB. Short content only
    /// says yes less often (300 random bytes show an entropy of about 7.4 bits). Deflating
    /// the 1-2 KB JPEGs and PNGs of a sprite sheet or thumbnail folder for nothing was a
    /// tenth of the CPU time of corpus S.
    static let smallestContentProbed = 256

    /// Stage 1 over the whole of a small file's content.
    static func isSurelyIncompressible(_ content: UnsafeRawBufferPointer) -> Bool {
        guard content.count >= smallestContentProbed else { return false }
        return entropy(content) >= minimumEntropy && repeatRate(content) <= maximumRepeatRate
    }

    /// Compressed size / size of one window at level 1.
    static func deflateRatio(_ bytes: UnsafeRawBufferPointer) -> Double {
        var outputSize = compressBound(uLong(bytes.count))
        let output = UnsafeMutablePointer<Bytef>.allocate(capacity: Int(outputSize))
        defer { output.deallocate() }
        let status = compress2(output, &outputSize, bytes.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(bytes.count), 1)
        guard status == Z_OK else { return 0 }
        return Double(outputSize) / Double(bytes.count)
    }

    /// Order-0 entropy in bits per byte. Bytes are counted in four tables in turn, then
    /// added up: with one table, each count waits for the previous byte's when they are
    /// equal, and the probe reads every byte of the small files it judges. The sum of
    /// -p log2 p is taken as log2(n) - (sum of c log2 c) / n, with c log2 c looked up for
    /// the counts of files of a few KB: 256 calls of `log2` cost as much as counting a
    /// kilobyte, and most files judged are a few KB.
    static func entropy(_ bytes: UnsafeRawBufferPointer) -> Double {
        guard !bytes.isEmpty else { return 0 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * 256) { tables in
            tables.initialize(repeating: 0)
            let quads = bytes.count / 4 * 4
            var i = 0
            while i < quads {
                tables[Int(bytes[i])] &+= 1
                tables[256 + Int(bytes[i + 1])] &+= 1
                tables[512 + Int(bytes[i + 2])] &+= 1
                tables[768 + Int(bytes[i + 3])] &+= 1
                i += 4
            }
            for byte in bytes[quads...] { tables[Int(byte)] &+= 1 }
            var sum = 0.0
            countLogs.withUnsafeBufferPointer { countLogs in
                for value in 0..<256 {
                    let count = tables[value] + tables[256 + value] + tables[512 + value] + tables[768 + value]
                    sum += count < countLogs.count ? countLogs[count] : Double(count) * log2(Double(count))
                }
            }
            let total = Double(bytes.count)
            return log2(total) - sum / total
        }
    }

    /// c log2 c for the counts below 4,096 (0 for 0).
    private static let countLogs: [Double] = (0..<4096).map { $0 == 0 ? 0 : Double($0) * log2(Double($0)) }

    /// The share of 4-byte sequences already seen earlier in the content. A slot holds
    /// the sequence plus one, so zero marks an empty slot (a sequence of 0xFFFFFFFF is
    /// simply never counted, which errs towards "compressible"). The table has at least
    /// as many slots as there are sequences, so few are lost to collisions. Each sequence
    /// is loaded whole (little-endian, the first byte lowest) rather than shifted in byte
    /// by byte, so no step waits for the previous one: 0.6 ns per byte against 1.2.
    static func repeatRate(_ bytes: UnsafeRawBufferPointer) -> Double {
        guard bytes.count >= 4 else { return 0 }
        let slotBits = min(16, max(12, Int.bitWidth - (bytes.count - 1).leadingZeroBitCount))
        let start = bytes.baseAddress!
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 1 << slotBits) { table in
            table.initialize(repeating: 0)
            var repeats = 0
            for offset in 0..<(bytes.count - 3) {
                let gram = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let slot = Int((gram &* 2_654_435_761) >> UInt32(32 - slotBits))
                if table[slot] == gram &+ 1 {
                    repeats += 1
                } else {
                    table[slot] = gram &+ 1
                }
            }
            return Double(repeats) / Double(bytes.count - 3)
        }
    }
}
