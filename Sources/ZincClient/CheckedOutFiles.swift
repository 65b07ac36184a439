import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a checked-out version (of one flavor) as a walk of its folder looks them
/// up: each path's bytes in one buffer, with its object's digest, sorted by path. About
/// 32 bytes a file beside its path, and no string or dictionary entry per file, so a
/// bundle of 100,000 files costs `status` a few megabytes, not an object graph.
struct CheckedOutFiles {
    private struct File {
        let start: UInt32
        let length: UInt32
        let digest: SHA1.Digest
    }

    private let bytes: [UInt8]
    /// Sorted by path bytes, each path once.
    private let files: [File]

    var count: Int { files.count }

    /// The kept manifest of `tracked`'s `version`, read as a stream (its `files` are never
    /// collected into a table), keeping the files of the tracked flavor.
    static func read(_ tracked: RepoState.TrackedBundle, version: Int, in repo: Repo) throws -> CheckedOutFiles {
        try read(
            repo.checkedOutManifestDocument(catalog: tracked.catalog, bundle: tracked.bundle, version: version),
            flavor: tracked.flavor)
    }

    /// The files of `flavor` (all without one) of the manifest `document` streams.
    static func read(_ document: StreamedDocument, flavor: String?) throws -> CheckedOutFiles {
        var bytes = [UInt8]()
        var files = [File]()
        _ = try Manifest.parse(document) { filePath, entry in
            guard entry.isIn(flavor: flavor) else { return }
            files.append(File(start: UInt32(bytes.count), length: UInt32(filePath.utf8.count), digest: entry.object.digest))
            bytes.append(contentsOf: filePath.utf8)
        }
        let order = { (a: File, b: File) in bytes.withUnsafeBufferPointer { Self.compare(slice(a, of: $0), slice(b, of: $0)) } }
        // Manifests list their files in path order: sorting is for those that do not.
        if !files.indices.dropFirst().allSatisfy({ order(files[$0 - 1], files[$0]) < 0 }) { files.sort { order($0, $1) < 0 } }
        let result = CheckedOutFiles(bytes: bytes, files: files)
        if let twice = files.indices.dropFirst().first(where: { order(files[$0 - 1], files[$0]) == 0 }) {
            throw ZincError.corruptFile(path: document.name, reason: "file '\(result.path(twice))' is listed twice")
        }
        return result
    }

    /// What turns this version's files into `new`'s, by one merge of the two in path
    /// order: `place`, the files of `new` that this version lacks or holds with another
    /// object (changed and added); `remove`, those of this version that `new` lacks or
    /// holds with another object (changed and removed). Both in path order.
    func changes(to new: CheckedOutFiles) -> (place: [Int], remove: [Int]) {
        var place = [Int]()
        var remove = [Int]()
        var i = 0
        var j = 0
        bytes.withUnsafeBufferPointer { mine in
            new.bytes.withUnsafeBufferPointer { theirs in
                while i < files.count || j < new.files.count {
                    let order =
                        i == files.count
                        ? 1 : j == new.files.count ? -1 : Self.compare(Self.slice(files[i], of: mine), Self.slice(new.files[j], of: theirs))
                    if order < 0 {
                        remove.append(i)
                        i += 1
                    } else if order > 0 {
                        place.append(j)
                        j += 1
                    } else {
                        if files[i].digest != new.files[j].digest {
                            remove.append(i)
                            place.append(j)
                        }
                        i += 1
                        j += 1
                    }
                }
            }
        }
        return (place, remove)
    }

    /// The index of the file at `path` (its UTF-8 bytes), nil when the version has none.
    func index(of path: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { all in
            let i = files.partitionPoint { Self.compare(Self.slice($0, of: all), path) < 0 }
            return i < files.count && Self.compare(Self.slice(files[i], of: all), path) == 0 ? i : nil
        }
    }

    func path(_ index: Int) -> String {
        let file = files[index]
        return String(decoding: bytes[Int(file.start)..<Int(file.start + file.length)], as: UTF8.self)
    }

    func digest(_ index: Int) -> SHA1.Digest { files[index].digest }

    /// Each file's object, in path order (an object shared by files comes once a file).
    var digests: [SHA1.Digest] { files.map(\.digest) }

    private static func slice(_ file: File, of all: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[Int(file.start)..<Int(file.start + file.length)])
    }

    /// Byte order: negative, zero or positive as `a` comes before, is, or comes after `b`.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let base = a.baseAddress, let other = b.baseAddress {
            let order = memcmp(base, other, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}
