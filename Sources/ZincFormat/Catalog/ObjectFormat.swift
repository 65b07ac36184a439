/// How an object is stored: as its raw bytes, or as one gzip member.
package enum ObjectFormat: String, CaseIterable, Comparable, Sendable {
    case gz
    case raw

    /// The object's file name suffix in `objects/` and in archives.
    package var suffix: String { self == .gz ? ".gz" : "" }

    /// Readers prefer `gz`, then `raw`.
    package static func < (lhs: ObjectFormat, rhs: ObjectFormat) -> Bool {
        lhs == .gz && rhs == .raw
    }
}

/// One stored form of an object: its format and the size of the stored bytes.
package struct StoredObject: Equatable, Hashable, Sendable {
    /// The SHA-1 of the object's content. A bundle of 100,000 files holds one
    /// `StoredObject` per object, so it keeps the digest rather than its hex string.
    package let digest: SHA1.Digest
    /// The stored sizes, -1 for a format not present: neither a dictionary (~150 bytes
    /// each) nor optionals.
    package let sizes: Sizes

    /// An object's stored sizes without its digest, for per-file tables that already
    /// hold the digests (the client's `CompactManifest` among them).
    ///
    /// Each size is held in 48 bits (`range`, far above the 1 TiB a manifest may state),
    /// the two in three 32-bit words: aligned to 4 bytes like the digest, an object takes
    /// 32 bytes where two 64-bit sizes made it 40 (a first sync of 1,000,000 objects
    /// holds every one of them).
    package struct Sizes: Equatable, Hashable, Sendable {
        /// The low 32 bits of `gz`, of `raw`, then the high 16 bits of each (gz's first).
        private let words: (UInt32, UInt32, UInt32)

        /// The sizes a `Sizes` holds: -1 for a format absent, and up to 128 TiB.
        package static let range: ClosedRange<Int64> = -1...((1 << 47) - 1)

        /// The sizes in each format, -1 for a format the object lacks; each in `range`.
        package init(gz: Int64, raw: Int64) {
            precondition(Self.range.contains(gz) && Self.range.contains(raw), "a stored size is from -1 to 128 TiB")
            let (g, r) = (UInt64(bitPattern: gz), UInt64(bitPattern: raw))
            words = (
                UInt32(truncatingIfNeeded: g), UInt32(truncatingIfNeeded: r),
                UInt32(truncatingIfNeeded: g >> 32) << 16 | UInt32(truncatingIfNeeded: r >> 32) & 0xFFFF
            )
        }

        package var gz: Int64 { Self.size(low: words.0, high: words.2 >> 16) }
        package var raw: Int64 { Self.size(low: words.1, high: words.2 & 0xFFFF) }

        /// The 48-bit size whose low 32 bits are `low` and high 16 bits `high`, its sign extended.
        private static func size(low: UInt32, high: UInt32) -> Int64 {
            Int64(bitPattern: (UInt64(high) << 48 | UInt64(low) << 16)) >> 16
        }

        package static func == (a: Sizes, b: Sizes) -> Bool { a.words == b.words }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
        }

        /// No format: no object.
        package static let none = Sizes(gz: -1, raw: -1)

        /// An object stored in `format` alone, `size` bytes.
        package static func only(_ format: ObjectFormat, _ size: Int64) -> Sizes {
            format == .gz ? Sizes(gz: size, raw: -1) : Sizes(gz: -1, raw: size)
        }
    }

    /// The SHA-1 as 40 lowercase hex digits (made on each use).
    package var sha: String { digest.hex }

    /// Stored size per format present (`gz` size is the compressed size).
    package var formats: [ObjectFormat: Int64] {
        var formats = [ObjectFormat: Int64]()
        if sizes.gz >= 0 { formats[.gz] = sizes.gz }
        if sizes.raw >= 0 { formats[.raw] = sizes.raw }
        return formats
    }

    /// `sha` must be 40 lowercase hex digits; `formats` must name at least one format,
    /// with sizes of 0 or more.
    package init(sha: String, formats: [ObjectFormat: Int64]) {
        self.init(digest: SHA1.Digest(validHex: sha), formats: formats)
    }

    /// `formats` must name at least one format, with sizes of 0 or more.
    package init(digest: SHA1.Digest, formats: [ObjectFormat: Int64]) {
        precondition(!formats.isEmpty && formats.values.allSatisfy { $0 >= 0 }, "an object is stored in at least one format")
        self.init(digest: digest, sizes: Sizes(gz: formats[.gz] ?? -1, raw: formats[.raw] ?? -1))
    }

    package init(digest: SHA1.Digest, sizes: Sizes) {
        precondition(sizes != .none, "an object is stored in at least one format")
        self.digest = digest
        self.sizes = sizes
    }

    /// The content's size when the manifest lists the raw form; nil for an object stored
    /// only gzipped (its content size is then not recorded anywhere but in the gzip stream).
    package var contentSize: Int64? { sizes.raw >= 0 ? sizes.raw : nil }

    /// The format a reader (and an archive) uses: `gz` when present.
    package var preferredFormat: ObjectFormat { sizes.gz >= 0 ? .gz : .raw }
    package var preferredSize: Int64 { sizes.gz >= 0 ? sizes.gz : sizes.raw }

    /// The object's file name: `<sha>` or `<sha>.gz`.
    package var fileName: String {
        Self.spell(digest, capacity: 43) { digits, name in
            name.put(digits)
            name.put(preferredFormat.suffix.utf8)
        }
    }

    /// The catalog-relative path of an object: `objects/ab/cd/<sha>` plus the format's
    /// suffix. `sha` must be 40 lowercase hex digits.
    package static func path(sha: String, format: ObjectFormat) -> String {
        path(digest: SHA1.Digest(validHex: sha), format: format)
    }

    /// `path(sha:format:)` built straight from the digest: an import asks for it once
    /// per object it stores and once per archive member.
    package static func path(digest: SHA1.Digest, format: ObjectFormat) -> String {
        spell(digest, capacity: 57) { digits, name in
            name.put("objects/".utf8)
            name.put(digits[0..<2])
            name.put("/".utf8)
            name.put(digits[2..<4])
            name.put("/".utf8)
            name.put(digits)
            name.put(format.suffix.utf8)
        }
    }

    package var preferredPath: String { Self.path(digest: digest, format: preferredFormat) }

    /// The shard of an object: the first two digits of its SHA-1, as `objects/` names
    /// the folder.
    package static func shard(of digest: SHA1.Digest) -> String {
        spell(digest, capacity: 2) { digits, name in name.put(digits[0..<2]) }
    }

    /// A name of at most `capacity` bytes written around the digest's 40 hex digits by
    /// `write`, made as one String: no String for the digits alone, and none allocated
    /// for a name of up to 15 bytes.
    private static func spell(
        _ digest: SHA1.Digest, capacity: Int, _ write: (UnsafeBufferPointer<UInt8>, inout NameWriter) -> Void
    ) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
            digest.writeHex(to: digits)
            return String(unsafeUninitializedCapacity: capacity) { out in
                var name = NameWriter(out: out)
                write(UnsafeBufferPointer(digits), &name)
                return name.end
            }
        }
    }

    /// Appends bytes to the buffer a name is spelled into.
    private struct NameWriter {
        let out: UnsafeMutableBufferPointer<UInt8>
        var end = 0

        mutating func put(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                out[end] = byte
                end += 1
            }
        }
    }
}

extension StoredObject {
    /// The objects once each, by digest: `objects` itself, not a copy, when they are.
    package static func distinctSorted(_ objects: [StoredObject]) -> [StoredObject] {
        if isDistinctSorted(objects) { return objects }
        var objects = objects
        objects.sort { $0.digest < $1.digest }
        var distinct = 0
        for i in objects.indices where distinct == 0 || objects[distinct - 1].digest != objects[i].digest {
            objects[distinct] = objects[i]
            distinct += 1
        }
        objects.removeLast(objects.count - distinct)
        return objects
    }

    /// Whether `objects` are in digest order, each once.
    package static func isDistinctSorted(_ objects: [StoredObject]) -> Bool {
        objects.indices.dropFirst().allSatisfy { objects[$0 - 1].digest < objects[$0].digest }
    }
}
