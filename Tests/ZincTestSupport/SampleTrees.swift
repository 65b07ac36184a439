import Foundation
import Zinc

/// Deterministic content for tests: incompressible bytes (like JPEG), compressible
/// text (like JSON), and trees built from them.
public enum SampleContent {
    /// Pseudo-random bytes from a fixed seed (xorshift), so tests are repeatable.
    public static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
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

    /// Compressible text that does not repeat (words picked by a seeded generator), as a
    /// large JSON or script is: deflate shrinks it about threefold.
    public static func prose(_ count: Int, seed: UInt64) -> [UInt8] {
        let words = [
            "le", "la", "chat", "chien", "maison", "rouge", "bleu", "grand", "petit", "manger", "boire", "aller", "venir",
            "voir", "savoir", "lesson", "level", "score", "audio", "image", "sprite", "{", "}", "\"id\":", "\n",
        ].map { Array($0.utf8) }
        var out = [UInt8]()
        out.reserveCapacity(count + 16)
        var choices = noise(count / 2 + 64, seed: seed).makeIterator()
        while out.count < count, let choice = choices.next() {
            out += words[Int(choice) % words.count]
            out.append(UInt8(ascii: " "))
        }
        while out.count < count { out += Array("fin ".utf8) }
        return Array(out.prefix(count))
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

    /// A catalog at `cat` (in `dir`) with bundle B: version 1 is the talk's files from
    /// `src`, version 2 replaces the photo (so version 1 alone uses the old one).
    /// `archives`: which versions keep archives (`.all`: each, written at import).
    public static func catalogWithThePhotoReplaced(in dir: TemporaryDirectory, archives: ArchivePolicy = .pointed) throws -> Catalog {
        let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        if archives != .standard { try catalog.setArchivePolicy(archives) }
        try basicAdjectives(in: dir)
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try dir.write("src/photos/85x85/kind.jpg", noise(9000, seed: 2))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        return catalog
    }

    /// A catalog at `cat` (in `dir`) with bundle B: version 1 is the talk's files from
    /// `src` and `v1.txt`, and each later version up to `versions` adds `vN.txt`, so
    /// each version holds a file no earlier one does. `archives`: which versions keep
    /// archives (`.all`: each, written at import).
    public static func catalogGrowingByAFile(in dir: TemporaryDirectory, versions: Int, archives: ArchivePolicy = .pointed) throws
        -> Catalog
    {
        let catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        if archives != .standard { try catalog.setArchivePolicy(archives) }
        try basicAdjectives(in: dir)
        for version in 1...versions {
            try dir.write("src/v\(version).txt", text(3000 + version, word: "v\(version)"))
            _ = try catalog.updateBundle("B", from: dir.at("src"))
        }
        return catalog
    }

    /// A tree with every kind of file an import treats differently: small text (stored
    /// gzipped) and small noise (stored raw), held in memory; files over 1 MiB, streamed;
    /// members large enough to be copied in the kernel when archived; contents found in
    /// several files; an empty file; folders at several depths.
    @discardableResult
    public static func mixedTree(in dir: TemporaryDirectory, at folder: String = "src") throws -> String {
        for i in 0..<60 {
            try dir.write("\(folder)/lessons/\(i % 5)/lesson-\(i).json", text(800 + 97 * i, word: "word\(i % 7)"))
            try dir.write("\(folder)/photos/\(i % 3)/photo-\(i).jpg", noise(500 + 211 * (i % 40), seed: UInt64(i % 40)))
        }
        try dir.write(folder + "/audio/long.caf", text(1_600_000, word: "pcm"))
        try dir.write(folder + "/video/intro.mp4", noise(1_300_000, seed: 90))
        try dir.write(folder + "/video/copy/intro.mp4", noise(1_300_000, seed: 90))
        try dir.write(folder + "/photos/poster.png", noise(400_000, seed: 91))
        try dir.write(folder + "/empty.txt", [])
        return dir.at(folder)
    }
}

public func sha1Hex(_ bytes: [UInt8]) -> String { SHA1.hash(bytes) }
