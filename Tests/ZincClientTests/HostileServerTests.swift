import Foundation
import Testing
import Zinc
import ZincClient
import ZincTestSupport

/// A broken or malicious server cannot corrupt the repo or write outside it, and the
/// error says what was wrong, whatever the transport. Each test starts from version 1
/// checked out and version 2 published, then lets the server misbehave on one file of
/// the update.
@Suite struct HostileServerTests {
    @Test(arguments: ClientTransport.allCases) func anObjectWithTheWrongContentIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        let size = Int(newObject.preferredSize)
        fixture.server.override(newObject.preferredPath) { HostileHTTPServer.serve(SampleContent.noise(size, seed: 666), for: $0) }
        let error = try fixture.failingSync(.objects)
        #expect(error.contains("SHA-1") && error.contains(newObject.sha), "\(error)")
        #expect(!fixture.dir.exists("repo/objects/" + newObject.sha))
    }

    @Test(arguments: ClientTransport.allCases) func aBodyCutShortOfItsContentLengthIsReported(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        let content = try fixture.dir.read("cat/" + newObject.preferredPath)
        fixture.server.override(newObject.preferredPath) { _ in
            HostileHTTPServer.response(status: "200 OK", body: Array(content.prefix(1000)), length: content.count)
        }
        let error = try fixture.failingSync(.objects)
        #expect(error.contains(newObject.preferredPath) && error.contains("after 1000 bytes"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func aContentLengthShorterThanTheObjectIsReported(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        let content = try fixture.dir.read("cat/" + newObject.preferredPath)
        fixture.server.override(newObject.preferredPath) { _ in
            HostileHTTPServer.response(status: "200 OK", body: content, length: 1000)
        }
        let error = try fixture.failingSync(.objects)
        #expect(error.contains("cut short: 1000 of \(content.count) bytes"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func aBodyLongerThanTheManifestSaysIsCutOff(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        let content = try fixture.dir.read("cat/" + newObject.preferredPath)
        fixture.server.override(newObject.preferredPath) { HostileHTTPServer.serve(content + content, for: $0) }
        let error = try fixture.failingSync(.objects)
        #expect(error.contains("more than the \(content.count) bytes allowed"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func anArchiveMemberWithAPathIsHostile(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        fixture.serveArchive([(name: "../../evil", data: Array("pwned".utf8), type: UInt8(ascii: "0"))])
        let error = try fixture.failingSync(.lmfo)
        #expect(error.contains("member '../../evil'") && error.contains("not named <sha> or <sha>.gz"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func anArchiveLinkIsHostile(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        fixture.serveArchive([(name: newObject.sha, data: [], type: UInt8(ascii: "2"))])
        let error = try fixture.failingSync(.lmfo)
        #expect(error.contains("is not a regular file"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func anArchiveMemberOfAnotherVersionIsHostile(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let stranger = SampleContent.text(100, word: "stranger")
        fixture.serveArchive([(name: sha1Hex(stranger), data: stranger, type: UInt8(ascii: "0"))])
        let error = try fixture.failingSync(.lmfo)
        #expect(error.contains("is not an object of this version"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func anArchiveMemberWithWrongContentIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        let size = Int(newObject.preferredSize)
        fixture.serveArchive([(name: newObject.sha, data: SampleContent.noise(size, seed: 7), type: UInt8(ascii: "0"))])
        let error = try fixture.failingSync(.lmfo)
        #expect(error.contains("SHA-1") && error.contains("member '\(newObject.sha)'"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func aManifestPathLeavingTheBundleIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let manifest = try fixture.manifest(2)
        var hostile = manifest
        hostile.files["../../escape.txt"] = manifest.files.values.first!
        let gz = GzipCompressor.compress(hostile.encoded())
        fixture.server.override("manifests/B-2.json.gz") { HostileHTTPServer.serve(gz, for: $0) }
        let error = try fixture.failingSync()
        #expect(error.contains("'../../escape.txt'") && error.contains("'..' component"), "\(error)")
    }

    /// A size no object can have is refused where the manifest is parsed, and the repo
    /// it was refused in syncs normally once the server is honest again.
    @Test(arguments: ClientTransport.allCases) func anImpossibleSizeIsRefusedAndLeavesTheRepoUsable(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        let json = String(decoding: try fixture.manifest(2).encoded(), as: UTF8.self)
        let size = "\"size\":\(newObject.preferredSize)"
        let hostile = Array(json.replacingOccurrences(of: size, with: "\"size\":9223372036854775807").utf8)
        #expect(hostile != Array(json.utf8))
        let gz = GzipCompressor.compress(hostile)
        fixture.server.override("manifests/B-2.json.gz") { HostileHTTPServer.serve(gz, for: $0) }
        let error = try fixture.failingSync()
        #expect(error.contains("has no 'size' from 0 to 1099511627776"), "\(error)")
        fixture.server.override("manifests/B-2.json.gz") { _ in nil }
        let report = try fixture.sync()
        #expect(!report.failed, "\(fixture.failure(report))")
        #expect(try fixture.repo.loadState().bundles.first?.version == 2)
    }

    @Test(arguments: ClientTransport.allCases) func aHugeCatalogIndexIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let bomb = GzipCompressor.compress([UInt8](repeating: 32, count: 3 << 20))
        fixture.server.override("catalog.json.gz") { HostileHTTPServer.serve(bomb, for: $0) }
        let error = try fixture.failingSync(documentLimit: 1 << 20)
        #expect(error.contains("catalog.json.gz (gunzipped) sent more than the 1048576 bytes"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func anIndexOfAnotherCatalogIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let index = CatalogIndex(id: "com.evil", bundles: ["B": .init(versions: [1], distributions: ["master": 1], nextVersion: 1)])
        let gz = GzipCompressor.compress(index.encoded())
        fixture.server.override("catalog.json.gz") { HostileHTTPServer.serve(gz, for: $0) }
        let error = try fixture.failingSync()
        #expect(error.contains("serves catalog 'com.evil', not 'com.example.app'"), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func aRedirectOutOfHTTPIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let newObject = try fixture.newObjectOfVersion2()
        // Followed, it would read a file of the client's machine into the repo.
        fixture.server.override(newObject.preferredPath) { _ in
            HostileHTTPServer.response(status: "302 Found", headers: ["Location": "file:///etc/passwd"], body: [])
        }
        let error = try fixture.failingSync(.objects)
        #expect(error.contains(newObject.preferredPath) && error.contains("\"file\""), "\(error)")
    }

    @Test(arguments: ClientTransport.allCases) func aRangeAnsweredFromTheWrongOffsetIsRefused(_ transport: ClientTransport) throws {
        let fixture = try ClientFixture.version1SyncedVersion2Published(transport: transport)
        let archive = try fixture.dir.read("cat/archives/B-2.tar")
        fixture.server.override("archives/B-2.tar") { _ in
            HostileHTTPServer.response(
                status: "206 Partial Content", headers: ["Content-Range": "bytes 512-1023/\(archive.count)"],
                body: Array(archive[512..<1024]))
        }
        let error = try fixture.failingSync(.lmfo)
        #expect(error.contains("Content-Range 'bytes 512-1023"), "\(error)")
    }
}

extension ClientFixture {
    /// A new object of version 2, stored raw.
    fileprivate func newObjectOfVersion2() throws -> StoredObject {
        let old = try Set(manifest(1).objects().keys)
        return try manifest(2).objects().values.filter { !old.contains($0.sha) && $0.preferredFormat == .raw }.min { $0.sha < $1.sha }!
    }

    /// Syncs expecting failure; checks that version 1 stays in use, untouched, that
    /// no version 2 folder appeared, and that nothing was written beside the repo.
    fileprivate func failingSync(
        _ strategy: FetchStrategy? = nil, documentLimit: Int64 = SyncOptions.defaultDocumentLimit,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let before = Set(dir.files(under: "")).filter { !$0.hasPrefix("repo/") }
        let report = try sync(strategy, documentLimit: documentLimit)
        #expect(report.failed, sourceLocation: sourceLocation)
        #expect(try repo.loadState().bundles.first?.version == 1, sourceLocation: sourceLocation)
        #expect(try bundleMatchesSourceVersion1Untouched(), sourceLocation: sourceLocation)
        #expect(!dir.exists(bundleFolder(2)), sourceLocation: sourceLocation)
        #expect(Set(dir.files(under: "")).filter { !$0.hasPrefix("repo/") } == before, sourceLocation: sourceLocation)
        return failure(report)
    }

    fileprivate func serveArchive(_ members: [(name: String, data: [UInt8], type: UInt8)]) {
        var archive = [UInt8]()
        for member in members {
            var header = try! TarHeader.encode(name: member.name, size: Int64(member.data.count))
            header[156] = member.type
            header.replaceSubrange(148..<156, with: Array("        ".utf8))
            let checksum = String(header.reduce(0) { $0 + Int($1) }, radix: 8)
            header.replaceSubrange(148..<156, with: Array((String(repeating: "0", count: 6 - checksum.count) + checksum).utf8) + [0, 32])
            archive +=
                header + member.data
                + [UInt8](repeating: 0, count: Int(TarHeader.paddedLength(Int64(member.data.count))) - member.data.count)
        }
        archive += [UInt8](repeating: 0, count: 1024)
        let served = archive
        server.override("archives/B-2.tar") { HostileHTTPServer.serve(served, for: $0) }
    }
}
