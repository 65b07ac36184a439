import Foundation
import Zinc

/// Deterministic content for tests: incompressible bytes (like JPEG), compressible
/// text (like JSON), and trees built from them.
public enum SampleContent {
    /// Pseudo-random bytes from a fixed seed (xorshift), so tests are repeatable.
    public static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E3779B97F4A7C15 | 1
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            withUnsafeBytes(of: state) { out.append(contentsOf: $0.prefix(count - out.count)) }
        }
        return out
    }

    public static func text(_ count: Int, word: String = "adjective") -> [UInt8] {
        Array(String(repeating: word + " ", count: count / (word.count + 1) + 1).utf8.prefix(count))
    }

    /// The talk's BasicAdjectives bundle: a photo (stored raw), an audio clip and a
    /// JSON lesson (both stored gzipped).
    @discardableResult
    public static func basicAdjectives(in dir: TemporaryDirectory, at folder: String = "src") throws -> String {
        try dir.write(folder + "/photos/85x85/kind.jpg", noise(8640, seed: 1))
        try dir.write(folder + "/audio/basic-adj-11.caf", text(20000, word: "pcm"))
        try dir.write(folder + "/Basic Adjectives.js", text(3000, word: "lesson"))
        return dir.at(folder)
    }
}

public func sha1Hex(_ bytes: [UInt8]) -> String { SHA1.hash(bytes) }
