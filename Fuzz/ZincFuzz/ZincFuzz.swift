import Foundation
import Zinc
import ZincClient
import ZincHTTP
import ZincS3
import ZincServer

#if FUZZING
import CFuzzer
#endif

/// Every parser of bytes that come from outside (catalog files, HTTP answers and
/// headers, S3's XML answers, a client repo's state, lock objects), each as a function that must return,
/// whatever the input, without crashing, trapping or hanging.
///
/// Built with `make fuzz` (libFuzzer, `-sanitize=fuzzer,address -DFUZZING`): the
/// environment variable `ZINC_FUZZ_TARGET` names the parser to fuzz. Built normally, it
/// replays inputs through a parser: `swift run ZincFuzz TARGET FILE...`, as a crash
/// libFuzzer found is checked before it becomes a unit test.
let targets: [String: @Sendable ([UInt8]) -> Void] = [
    "json": { _ = try? JSONValue.parse($0) },
    "index": { bytes in
        _ = try? CatalogIndex.parse(bytes, path: "catalog.json")
        _ = CatalogIndex.repeatedVersions(in: bytes)
    },
    "manifest": { bytes in
        guard let manifest = try? Manifest.parse(bytes, path: "m.json") else { return }
        _ = Catalog.archiveScopes(of: manifest, includeMasterArchive: true)
    },
    "flavorspec": { bytes in
        guard let spec = try? Flavorspec.parse(bytes, source: "spec") else { return }
        for path in ["a.png", "img/b@2x.png", "x/y/z~phone.jpg", ""] { _ = spec.flavors(for: path) }
    },
    "tar": { bytes in
        let tar = TarReader(BytesReader(bytes), path: "a.tar", bufferSize: 512)
        while let member = try? tar.next() {
            _ = TarHeader.paddedLength(member.size)
            guard (try? tar.readData { _ in }) == true else { break }
        }
    },
    "gzip": { bytes in
        var total = 0
        let gunzip = GzipDecompressor { piece in
            total += piece.count
            if total > 1 << 24 { throw GzipDecompressor.Failure.tooLarge(limit: 1 << 24) }
        }
        _ = try? bytes.withUnsafeBytes { try gunzip.update($0) }
        _ = try? gunzip.finish()
    },
    "http-range": { bytes in
        let header = String(decoding: bytes, as: UTF8.self)
        for size in [0, 1, 1000, Int.max] { _ = ByteRange(header: header, fileSize: size) }
    },
    "http-date": { _ = HTTPDate.parse(String(decoding: $0, as: UTF8.self)) },
    "http-etag": { _ = ConditionalRequest.entityTags(in: String(decoding: $0, as: UTF8.self)[...]) },
    "client-index": { _ = try? IndexFetcher.parse($0, url: "https://cdn.example.com/c") },
    "client-state": { _ = try? RepoState.parse($0, path: "repo.json") },
    "client-links": { bytes in
        let records = LinkRecords.parse(bytes)
        _ = records.hosts.values.map { $0.costModel(concurrency: 8).cost(requests: 17, bytes: 1 << 20) }
    },
    "client-stamps": { bytes in
        let stamps = ObjectStamps.parse(bytes)
        _ = stamps.entries.map { $0.1.size &+ $0.1.modified }
    },
    "seed-description": { bytes in
        _ = try? SeedFolder.parse(bytes, path: "seed.json")
        _ = try? SeedFolder.parseDistro(bytes, path: "seed-distro.json")
    },
    "lock-record": { _ = try? LockRecord.parse($0) },
    "s3-xml": { bytes in
        guard let document = XMLElement.parse(bytes) else { return }
        _ = document.children("Contents").map { $0.value("Key") }
    },
    "http-head": { bytes in
        var head = ResponseHead()
        for line in bytes.split(separator: UInt8(ascii: "\n")) { line.withUnsafeBytes { head.take($0) } }
        _ = (head.contentLength, head.contentRange, head["etag"])
    },
    "http-multipart": { bytes in
        // The first byte picks how the body is cut into chunks, as the network would.
        guard let step = bytes.first.map({ Int($0) % 64 + 1 }),
            var reader = MultipartByteranges(contentType: "multipart/byteranges; boundary=zzz")
        else { return }
        var rest = bytes.dropFirst()
        while !rest.isEmpty {
            let chunk = rest.prefix(step)
            rest = rest.dropFirst(step)
            let more = try? chunk.withUnsafeBytes { try reader.read($0) { _ in true } }
            guard more == true else { return }
        }
        _ = reader.isComplete
    },
    "lmfo-record": { bytes in
        guard let record = try? LMFORecord.parse(bytes, path: "lmfo/B-7.json", version: 7) else { return }
        let members = (record.scopes[""] ?? [:]).keys.map { StoredObject(digest: $0, formats: [.raw: 1000]) }
        _ = FetchPlan.make(
            missing: Array(members.prefix(3)), archiveObjects: members, fileCount: members.count, archivePath: "archives/B-7.tar",
            model: CostModel(), memberOrder: LMFOHint.order(bytes, url: "lmfo/B-7.json", version: 7, flavor: nil))
    },
    "chunk-list": { bytes in
        guard let list = try? ChunkList.parse(bytes, path: "chunks/B-1.json.gz") else { return }
        for layout in list.objects.values {
            _ = layout.storedRanges()
            // Up to the largest size an object holds.
            for size in [0, 10, 1 << 20, StoredObject.Sizes.range.upperBound] {
                _ = layout.fits(StoredObject(sha: String(repeating: "a", count: 40), formats: [layout.format: size]))
            }
        }
    },
    "content-sizes": { bytes in
        guard let file = try? ContentSizes.parse(bytes, path: "sizes/B-1.json.gz") else { return }
        var total = SizeTotal()
        for (digest, size) in file.sizes {
            for stored in [0, 1, 1 << 20, StoredObject.Sizes.range.upperBound] {
                total.add(file.size(of: StoredObject(sha: digest.hex, formats: [.gz: stored])))
            }
            _ = file.size(of: StoredObject(sha: digest.hex, formats: [.raw: size]))
        }
        _ = try? ContentSizes.parse(file.encoded(), path: "sizes/B-1.json.gz")
    },
    "manifest-chunks": { bytes in
        guard let description = try? ManifestChunks.parse(bytes, path: "manifest-chunks/B-1.json.gz", bundle: "B", version: 1)
        else { return }
        for size in [0, 10, 1 << 20, Int64.max] { _ = description.fits(storedSize: size) }
        // Stored bytes of zeros: the first chunk fetched fails to inflate, and is refused.
        _ = try? description.rebuild(held: { _ in nil }) { _, range in [UInt8](repeating: 0, count: Int(range.count)) }
    },
    "digest-list": { bytes in
        _ = try? DigestList.parse(bytes, path: "digests/B-1.txt.gz")
        // The same bytes as a description of a digest list's chunks.
        _ = try? ManifestChunks.parse(bytes, path: "digests/B-1.chunks.json.gz", files: ["digests/B-1.txt.gz"])
    },
    "manifest-table": { bytes in
        // Read as the table of B-1 of com.example.app, a manifest of 1,000 bytes, as the seeds record.
        _ = ManifestTable.fileCount(inTable: bytes, catalog: "com.example.app", bundle: "B", version: 1, size: 1000)
    },
    "chunk-inflate": { bytes in
        // The first two bytes give the content length the chunk must inflate to.
        guard bytes.count >= 2 else { return }
        let length = (Int(bytes[0]) << 8 | Int(bytes[1])) * 4 + 1
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 16)
        defer { output.deallocate() }
        _ = try? bytes.dropFirst(2).withUnsafeBytes { try ChunkInflater().inflate($0, into: output) }
    },
    "signature": { bytes in
        // Verified against a key whose id the seeds name, so the signature check runs too.
        let key = try! PublicKey(raw: [UInt8](repeating: 7, count: 32))
        _ = try? IndexSignature.verified(bytes, path: "catalog.json.sig", trusted: [key])
        _ = try? ManifestSignature.verified(bytes, path: "m.sig", trusted: [key])
        _ = try? VersionSignature.verified(bytes, path: "v.sig", trusted: [key])
        _ = try? PublicKey.parse(bytes, path: "k.pub")
        _ = try? SigningKey.parse(pem: bytes, path: "k")
    },
    "rollout": { bytes in
        // Parsed, then verified against a key whose id the signed seed names, and the
        // install drawn, as a client does with a rollout file from a server.
        let key = try! PublicKey(raw: [UInt8](repeating: 7, count: 32))
        guard let rollout = try? RolloutFile.parse(bytes, path: "r.rollout") else { return }
        _ = try? RolloutFile.verified(bytes, path: "r.rollout", trusted: [key])
        let install = try! InstallIdentity(id: "install", attributes: [try! Attribute(key: "app-version", value: "2.1")])
        _ = RolloutSelection.choose(for: install, rollout: rollout, pointer: rollout.control, at: rollout.signedAt)
        _ = RolloutFile.encode(rollout, signedBy: nil)
    },
]

/// A stream over bytes in memory, for the tar reader.
final class BytesReader: StorageReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

#if FUZZING
/// The program's entry: SwiftPM links every executable with `main` pointing at
/// `<target>_main`, which a fuzz build (`-parse-as-library`, no Swift `main`) supplies
/// here, handing over to libFuzzer's driver.
@_cdecl("ZincFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    guard selected != nil else {
        FileHandle.standardError.write(Data("ZINC_FUZZ_TARGET must be one of: \(targets.keys.sorted().joined(separator: " "))\n".utf8))
        return 64
    }
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}

/// The parser `ZINC_FUZZ_TARGET` names, looked up once.
let selected = targets[ProcessInfo.processInfo.environment["ZINC_FUZZ_TARGET"] ?? ""]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
struct Replay {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = targets[name] else {
            FileHandle.standardError.write(
                Data("usage: ZincFuzz TARGET FILE...  (targets: \(targets.keys.sorted().joined(separator: " ")))\n".utf8))
            exit(64)
        }
        for file in arguments.dropFirst() {
            target([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
            print("\(name): \(file): ok")
        }
    }
}
#endif
