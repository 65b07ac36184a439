import Foundation
import Testing
import Zinc
import ZincTestSupport

/// Several `zinc` processes writing one catalog at once lose nothing.
@Suite struct ConcurrentWriterTests {
    @Test func parallelBundleAndDistroUpdatesAreAllKept() throws {
        let dir = try TemporaryDirectory()
        try dir.zinc.run(["create_catalog", "--id", "com.example.race", "--dest", "cat"])
        let bundles = 6, versionsEach = 3
        for b in 0..<bundles {
            for v in 1...versionsEach {
                try dir.write("src/\(b)-\(v)/shared.json", SampleContent.text(4000))
                try dir.write("src/\(b)-\(v)/own-\(v).bin", SampleContent.noise(3000 + v, seed: UInt64(b * 10 + v)))
            }
        }
        // One lane per bundle, each creating its versions in order, all lanes at once.
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: bundles) { b in
            for v in 1...versionsEach {
                for arguments in [
                    ["update_bundle", "--catalog", "cat", "--name", "B\(b)", "--source", "src/\(b)-\(v)"],
                    ["update_distro", "--catalog", "cat", "--id", "B\(b)", "--name", "master", "--version", "latest"],
                ] {
                    let result = try? dir.zinc.run(arguments)
                    if result?.status != 0 { failures.add("\(arguments): \(result?.stderr ?? "did not start")") }
                }
            }
        }
        #expect(failures.entries.isEmpty)

        let catalog = try Catalog.open(at: CatalogLocation(rootPath: dir.at("cat")))
        let index = try catalog.index()
        #expect(index.bundles.count == bundles)
        for b in 0..<bundles {
            let entry = try #require(index.bundles["B\(b)"])
            #expect(entry.versions == Array(1...versionsEach))
            #expect(entry.distributions["master"] == versionsEach)
            #expect(entry.distributions["_master"] == versionsEach - 1)
            for v in 1...versionsEach {
                let manifest = try catalog.manifest(bundle: "B\(b)", version: v)
                #expect(manifest.files.keys.sorted() == ["own-\(v).bin", "shared.json"])
            }
        }
        for name in ["index.json"] { #expect(try dir.read("cat/" + name) == dir.read("cat/catalog.json")) }
        #expect(try GzipDecompressor.decompress(dir.read("cat/catalog.json.gz")) == dir.read("cat/catalog.json"))
    }

    @Test func concurrentImportsOfTheSameContentShareObjects() throws {
        let dir = try TemporaryDirectory()
        try dir.zinc.run(["create_catalog", "--id", "com.example.race", "--dest", "cat"])
        for i in 0..<30 { try dir.write("src/f\(i).json", SampleContent.text(2000 + i, word: "same")) }
        let processes = try (0..<4).map { n in
            try ZincBinary.start(["update_bundle", "--catalog", "cat", "--name", "B\(n)", "--source", "src"], in: dir.path)
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let catalog = try Catalog.open(at: CatalogLocation(rootPath: dir.at("cat")))
        let manifests = try (0..<4).map { try catalog.manifest(bundle: "B\($0)", version: 1) }
        #expect(Set(manifests.map { $0.files.mapValues(\.object) }).count == 1, "every writer recorded the stored objects")
        #expect(dir.files(under: "cat/objects").count == 30)
    }
}

/// Collects failures from concurrent lanes.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list = [String]()
    func add(_ entry: String) { lock.withLock { list.append(entry) } }
    var entries: [String] { lock.withLock { list } }
}
