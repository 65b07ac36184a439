/// A version being imported, before it has a manifest: its files in manifest order
/// (paths ascending byte by byte, as `SourceTree.scan` lists them), kept in arrays.
/// A `Manifest` holds its files in a dictionary, which for 100,000 files would be the
/// largest table of an import (15 MB), built just when the archives need memory too.
struct VersionDraft {
    let paths: [String]
    /// Per file, its flavors; nil when the bundle has no flavorspec.
    let fileFlavors: [[String]?]
    /// The distinct objects, by digest, each the object of some file; and per file the
    /// index of its object among them.
    let objects: [StoredObject]
    let objectOfFile: [Int]
    /// Every flavor used by some file, in first-seen order (the manifest's `flavors`).
    let flavors: [String]
    /// Where the chunks of its large objects are; it may wait for them to be worked out.
    let chunkList: @Sendable () throws -> ChunkList
    /// The content sizes of its objects stored gzipped only: its files' sizes.
    let contentSizes: ContentSizes

    /// `fileSizes`: each file's size, which its object's content has (they hash alike).
    init(
        paths: [String], fileFlavors: [[String]?], objects: [StoredObject], objectOfFile: [Int], fileSizes: [Int64],
        chunkList: @escaping @Sendable () throws -> ChunkList = { ChunkList() }
    ) {
        assert(
            zip(paths, paths.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            "a draft's paths are in manifest order")
        assert(zip(objects, objects.dropFirst()).allSatisfy { $0.digest < $1.digest }, "a draft's objects are distinct, by digest")
        self.paths = paths
        self.fileFlavors = fileFlavors
        self.objects = objects
        self.objectOfFile = objectOfFile
        self.chunkList = chunkList
        var sizes = ContentSizes()
        for (object, size) in zip(objectOfFile.lazy.map { objects[$0] }, fileSizes) where ContentSizes.needsEntry(object) {
            sizes.sizes[object.digest] = size
        }
        contentSizes = sizes
        flavors = Self.firstSeen(fileFlavors)
    }

    /// The manifest's `flavors` list for files with these flavors, in this order.
    static func firstSeen(_ fileFlavors: [[String]?]) -> [String] {
        var order = [String]()
        for flavor in fileFlavors.lazy.compactMap({ $0 }).joined() where !order.contains(flavor) {
            order.append(flavor)
        }
        return order
    }

    func digest(_ file: Int) -> SHA1.Digest { objects[objectOfFile[file]].digest }

    /// How many files the whole version (nil) or one flavor holds.
    func fileCount(in flavor: String?) -> Int {
        paths.indices.count { entry($0).isIn(flavor: flavor) }
    }

    /// The objects of the whole version (nil) or of one flavor, once each, by digest.
    /// The whole version's are the draft's own, shared rather than copied and sorted
    /// again: an archive of 100,000 objects is planned when an import is largest in memory.
    func distinctObjects(in flavor: String?) -> [StoredObject] {
        guard let flavor else { return objects }
        var used = [Bool](repeating: false, count: objects.count)
        for i in paths.indices where entry(i).isIn(flavor: flavor) { used[objectOfFile[i]] = true }
        return objects.indices.compactMap { used[$0] ? objects[$0] : nil }
    }

    /// The manifest JSON of this draft as version `version`, in pieces (see `Manifest.encode`).
    func encode(catalog: String, bundle: String, version: Int, _ sink: ([UInt8]) throws -> Void) rethrows {
        try Manifest.encode(
            catalog: catalog, bundle: bundle, version: version, flavors: flavors,
            files: paths.indices.lazy.map { (paths[$0], entry($0)) }, sink)
    }

    private func entry(_ file: Int) -> Manifest.Entry {
        Manifest.Entry(object: objects[objectOfFile[file]], flavors: fileFlavors[file])
    }
}
