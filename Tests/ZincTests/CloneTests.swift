import Foundation
import Testing
import Zinc
import ZincTestSupport

/// clone_bundle: the files of a version, verified, in a folder that appears whole or not at all.
@Suite struct CloneTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    static let folder = "com.mindsnacks.french.BasicAdjectives-1"

    /// BasicAdjectives 1: a raw photo, two gzipped texts with the same content, an empty file.
    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.mindsnacks.french", in: FileStorage(root: dir.at("cat")))
        try SampleContent.basicAdjectives(in: dir)
        try dir.write("src/audio/copy.caf", SampleContent.text(20000, word: "pcm"))
        try dir.write("src/empty.txt", [])
        _ = try catalog.updateBundle("BasicAdjectives", from: dir.at("src"))
    }

    /// Replaces version 1's manifest by one listing `files` (path -> content), to play a
    /// hostile or damaged catalog.
    func replaceManifest(_ files: [String: [UInt8]]) throws {
        let entries = files.mapValues { content in
            Manifest.Entry(object: StoredObject(sha: sha1Hex(content), formats: [.raw: Int64(content.count)]))
        }
        for content in files.values {
            let sha = sha1Hex(content)
            try dir.write("cat/objects/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha)", content)
        }
        let manifest = Manifest(catalog: "com.mindsnacks.french", bundle: "BasicAdjectives", version: 1, files: entries)
        try dir.write("cat/manifests/BasicAdjectives-1.json", manifest.encoded())
        try FileManager.default.removeItem(atPath: dir.at("cat/manifests/BasicAdjectives-1.json.gz"))
    }

    @Test func writesEveryFileOfTheVersionByteForByte() throws {
        let result = try BundleClone(catalog, bundle: "BasicAdjectives", version: .latest, into: dir.at("out")).run()
        #expect(result.version == 1 && result.fileCount == 5 && result.manifestFile == nil)
        #expect(result.folder == dir.at("out/" + Self.folder))
        let files = dir.files(under: "out")
        #expect(
            files
                == ["Basic Adjectives.js", "audio/basic-adj-11.caf", "audio/copy.caf", "empty.txt", "photos/85x85/kind.jpg"]
                .map { Self.folder + "/" + $0 })
        for file in files {
            #expect(try dir.read("out/" + file) == dir.read("src/" + file.dropFirst(Self.folder.count + 1)))
        }
    }

    @Test func clonesOneFlavorIntoItsOwnFolderWithTheManifestBeside() throws {
        let spec = try Flavorspec.parse(Array(#"{"audio": ["+ audio/*", "- *"]}"#.utf8), source: "spec")
        _ = try catalog.updateBundle("BasicAdjectives", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec))
        let options = BundleCloneOptions(flavor: "audio", includeManifest: true)
        let result = try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(2), into: dir.at("out"), options: options).run()
        let folder = "com.mindsnacks.french.BasicAdjectives-2~audio"
        #expect(result.manifestFile == dir.at("out/\(folder).json"))
        #expect(dir.files(under: "out") == ["\(folder).json", "\(folder)/audio/basic-adj-11.caf", "\(folder)/audio/copy.caf"])
        #expect(try dir.read("out/\(folder).json") == catalog.manifest(bundle: "BasicAdjectives", version: 2).encoded())
    }

    @Test func reportsProgressUpToTheTotals() throws {
        let last = LastProgress()
        let options = BundleCloneOptions { progress in last.record(progress) }
        try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(1), into: dir.at("out"), options: options).run()
        let final = try #require(last.value)
        #expect(final.completedFiles == 5 && final.totalFiles == 5)
        let manifest = try catalog.manifest(bundle: "BasicAdjectives", version: 1)
        #expect(final.completedBytes == final.totalBytes)
        #expect(final.totalBytes == manifest.files.values.reduce(0) { $0 + $1.object.preferredSize })
    }

    @Test func refusesAnythingAlreadyAtTheDestinationWritingNothing() throws {
        try dir.write("out/\(Self.folder)/mine.txt", "keep")
        try dir.write("elsewhere/.keep", "")
        try FileManager.default.createDirectory(atPath: dir.at("links"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.at("links/\(Self.folder)"), withDestinationPath: dir.at("elsewhere"))
        try dir.write("manifests/\(Self.folder).json", "mine")
        let cases = [
            ("out", BundleCloneOptions(), ZincError.cloneDestinationExists(dir.at("out/" + Self.folder))),
            ("links", BundleCloneOptions(), ZincError.cloneDestinationIsSymlink(dir.at("links/" + Self.folder))),
            (
                "manifests", BundleCloneOptions(includeManifest: true),
                ZincError.cloneDestinationExists(dir.at("manifests/" + Self.folder) + ".json")
            ),
        ]
        for (destination, options, error) in cases {
            let before = dir.files(under: destination)
            #expect(throws: error) {
                try BundleClone(catalog, bundle: "BasicAdjectives", version: .latest, into: dir.at(destination), options: options).run()
            }
            #expect(dir.files(under: destination) == before)
        }
        #expect(dir.files(under: "elsewhere") == [".keep"])
        #expect(try dir.read("out/\(Self.folder)/mine.txt") == Array("keep".utf8))
    }

    @Test func refusesAManifestPathLeavingTheFolderBeforeWritingAnything() throws {
        try replaceManifest(["../escaped.txt": Array("gotcha".utf8), "ok.txt": Array("fine".utf8)])
        let manifestPath = dir.at("cat/manifests/BasicAdjectives-1.json")
        #expect(throws: ZincError.corruptFile(path: manifestPath, reason: "invalid path '../escaped.txt': it has a '..' component")) {
            try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(1), into: dir.at("out/deeper")).run()
        }
        #expect(!dir.exists("out"))
        #expect(!dir.exists("out/escaped.txt"))
    }

    /// A size no object can have (it used to overflow where the sizes are added up): refused
    /// before anything is written, and no staging folder is left.
    @Test func refusesAnImpossibleSizeBeforeWritingAnything() throws {
        let path = dir.at("cat/manifests/BasicAdjectives-1.json")
        let json = String(decoding: try dir.read("cat/manifests/BasicAdjectives-1.json"), as: UTF8.self)
        let hostile = json.replacingOccurrences(of: #""size":8640"#, with: #""size":9223372036854775807"#)
        #expect(hostile != json)
        try dir.write("cat/manifests/BasicAdjectives-1.json", hostile)
        #expect(
            throws: ZincError.corruptFile(
                path: path, reason: "file 'photos/85x85/kind.jpg' format 'raw' has no 'size' from 0 to 1099511627776")
        ) {
            try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(1), into: dir.at("out")).run()
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: dir.at("out"))) ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func refusesAnObjectWhoseContentDoesNotMatchItsSHA() throws {
        let manifest = try catalog.manifest(bundle: "BasicAdjectives", version: 1)
        let photo = try #require(manifest.files["photos/85x85/kind.jpg"]?.object)
        try dir.write("cat/" + photo.preferredPath, SampleContent.noise(8640, seed: 99))
        let actual = sha1Hex(SampleContent.noise(8640, seed: 99))
        #expect(
            throws: ZincError.integrity(
                path: dir.at("cat/" + photo.preferredPath),
                reason:
                    "its content has SHA-1 \(actual), but the manifest records \(photo.sha) for 'photos/85x85/kind.jpg'")
        ) {
            try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(1), into: dir.at("out")).run()
        }
        #expect(dir.files(under: "out").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.at("out")).isEmpty)
    }

    @Test func refusesAMissingObject() throws {
        let manifest = try catalog.manifest(bundle: "BasicAdjectives", version: 1)
        let empty = try #require(manifest.files["empty.txt"]?.object)
        try FileManager.default.removeItem(atPath: dir.at("cat/" + empty.preferredPath))
        #expect(throws: ZincError.integrity(path: dir.at("cat"), reason: "object \(empty.sha) of 'empty.txt' is missing")) {
            try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(1), into: dir.at("out")).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.at("out")).isEmpty)
    }

    @Test func refusesTwoPathsThatNeedTheSamePlace() throws {
        try replaceManifest(["a": Array("file".utf8), "a/b": Array("under a file".utf8)])
        let error = #expect(throws: ZincError.self) {
            try BundleClone(catalog, bundle: "BasicAdjectives", version: .number(1), into: dir.at("out")).run()
        }
        // Which of the two fails depends on which worker gets there first.
        guard let error, error.code == .invalidPath, let path = error.path, let reason = error.reason else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(["a", "a/b"].contains(path))
        #expect(reason.hasPrefix("another file of the clone already takes its place"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.at("out")).isEmpty)
    }
}

/// The last progress report, written from clone worker threads.
private final class LastProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: CloneProgress?

    func record(_ progress: CloneProgress) {
        lock.withLock { if progress.completedFiles > (latest?.completedFiles ?? -1) { latest = progress } }
    }

    var value: CloneProgress? { lock.withLock { latest } }
}
