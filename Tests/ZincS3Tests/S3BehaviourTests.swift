import Foundation
import Testing
import Zinc
import ZincHTTP
import ZincTestSupport

@testable import ZincS3

/// What the S3 backend does beyond the storage protocol, on moto's server and on
/// servers that fail: the headers it stores, the uploads it leaves, and the errors a
/// user reads.
@Suite struct S3BehaviourTests {
    static let immutable = "public, max-age=31536000, immutable"
    static let shortLived = "max-age=300"
    static let inParts = S3Tuning.standard.with(multipartThreshold: 6 << 20, partSize: 5 << 20)
    static let impatient = S3Tuning.standard.with(attempts: 2, firstDelay: .milliseconds(10))

    /// A signed HEAD of a catalog path: the headers the object was stored with.
    static func head(_ path: String, in storage: S3Storage) throws -> ResponseHead {
        let response = try storage.client.send(S3Request(.head, key: storage.address.key(path), operation: "HEAD \(path)"))
        #expect(response.status == 200, "HEAD \(path)")
        return response.head
    }

    /// FORMAT.md's types and cache lifetimes, written out here rather than taken from
    /// the code under test.
    static func expectedHeaders(_ path: String) -> (type: String, cacheControl: String) {
        let type =
            path.hasSuffix(".json")
            ? "application/json"
            : path.hasSuffix(".gz")
                ? "application/gzip"
                : path.hasSuffix(".tar") ? "application/x-tar" : "application/octet-stream"
        let folder = path.split(separator: "/").first.map(String.init) ?? ""
        let contentAddressed =
            ["objects", "manifests", "archives", "chunks", "sizes", "manifest-chunks"].contains(folder) && path.contains("/")
        return (type, contentAddressed ? immutable : shortLived)
    }

    func expectStoredHeaders(_ path: String, in storage: S3Storage, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let head = try Self.head(path, in: storage)
        let expected = Self.expectedHeaders(path)
        #expect(head["content-type"] == expected.type, "\(path)", sourceLocation: sourceLocation)
        #expect(head["cache-control"] == expected.cacheControl, "\(path)", sourceLocation: sourceLocation)
        #expect(head["content-encoding"] == nil, "\(path) has a Content-Encoding", sourceLocation: sourceLocation)
    }

    /// Every file of a catalog, written by every kind of upload (single PUTs, parts,
    /// conditional and not, assembled archives), carries FORMAT.md's headers.
    @Test func everyUploadCarriesItsTypeAndCachePolicy() throws {
        let server = try MotoServer.shared()
        let bucket = try server.makeBucket()
        let storage = try server.storage(bucket: bucket, tuning: Self.inParts)
        let dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.write("src/video/intro.mp4", SampleContent.noise(7 << 20, seed: 3))  // stored raw, in parts
        let catalog = try Catalog.create(id: "com.example.headers", in: storage)
        try catalog.setArchivePolicy(.all)  // every kind of archive upload, at import
        let spec = try Flavorspec.parse(Array(#"{"phone": ["- video/*", "+ *"], "tablet": ["+ *"]}"#.utf8), source: "devices.json")
        try FlavorspecStore(storage: storage).save(spec, as: "devices")
        _ = try catalog.updateBundle("B", from: dir.at("src"), options: BundleImportOptions(flavorspec: spec, includeMasterArchive: true))
        try dir.write("src/extra.json", SampleContent.text(5000))
        _ = try catalog.updateBundle("B", from: dir.at("src"))
        try DistroUpdate(catalog, bundle: "B", distro: "master", to: .latest).run()

        let paths = try storage.list("")
        for required in [
            "catalog.json", "catalog.json.gz", "index.json", "index.json.gz", "config.json", "config/flavorspecs/devices.json",
            "manifests/B-1.json", "manifests/B-1.json.gz", "archives/B-1.tar", "archives/B-1~phone.tar", "archives/B-2.tar",
        ] {
            #expect(paths.contains(required), "\(required) is missing from \(paths)")
        }
        #expect(
            paths.contains { $0.hasPrefix("objects/") && $0.hasSuffix(".gz") }
                && paths.contains { $0.hasPrefix("objects/") && !$0.hasSuffix(".gz") })
        for path in paths { try expectStoredHeaders(path, in: storage) }
        // Some of them went up in parts, whose headers are given when the upload begins.
        let entries = try storage.entries(in: "")
        let inParts = entries.filter { $0.fingerprint == nil }.map(\.path)
        #expect(inParts.contains { $0.hasPrefix("objects/") } && inParts.contains("archives/B-1.tar"), "uploads in parts: \(inParts)")
        // Lock objects too, while they exist.
        try storage.withImportLock(exclusive: false) { _ in
            let locks = try storage.list(LockObjects.folder)
            #expect(locks.count == 1)
            for path in locks { try expectStoredHeaders(path, in: storage) }
        }
        // And the literal values, once, for the files clients fetch first.
        #expect(try Self.head("catalog.json.gz", in: storage)["content-type"] == "application/gzip")
        #expect(try Self.head("catalog.json.gz", in: storage)["cache-control"] == "max-age=300")
        #expect(try Self.head("manifests/B-2.json.gz", in: storage)["cache-control"] == "public, max-age=31536000, immutable")
    }

    /// A writer killed between the first part and the completion leaves an upload the
    /// bucket keeps (and bills); it shows as an abandoned write of its own catalog only,
    /// sized by its parts and named as `clean` shows it, and discarding it aborts it.
    @Test func anAbandonedMultipartUploadIsListedAndAbortedByDiscard() throws {
        let server = try MotoServer.shared()
        let bucket = try server.makeBucket()
        let storage = try server.storage(bucket: bucket, prefix: "cat")
        let neighbour = try server.storage(bucket: bucket, prefix: "cat2")
        let upload = try MultipartUpload.begin("archives/B-1.tar", headers: ["content-type": "application/x-tar"], in: storage)
        _ = try upload.upload(part: 1, body: .bytes(SampleContent.noise(1000, seed: 1)), in: storage)
        let other = try MultipartUpload.begin("archives/B-1.tar", headers: [:], in: neighbour)

        // (moto dates every upload 2010-11-10, so the age cutoff is tested on a server of
        // our own: `abandonedUploadsAreTheOnesOlderThanTheCutoff`.)
        let abandoned = try storage.abandonedWrites(olderThan: .zero)
        #expect(abandoned.map(\.displayPath) == ["archives/B-1.tar?uploadId=" + upload.uploadID])
        #expect(abandoned.map(\.size) == [1000])
        // Invisible as a file.
        #expect(try storage.list("") == [] && storage.read("archives/B-1.tar") == nil && storage.size(of: "archives/B-1.tar") == nil)

        try storage.discard(abandoned[0])
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
        try storage.discard(abandoned[0])  // already gone: not an error
        let others = try neighbour.abandonedWrites(olderThan: .zero)
        #expect(others.map(\.displayPath) == [other.displayPath], "the other catalog's upload stays")
        for write in others { try neighbour.discard(write) }
    }

    /// `clean` reports an abandoned upload by the name it always had, `<path>?uploadId=<id>`,
    /// with the bytes of its parts, and a forced run aborts it.
    @Test func cleanShowsAnAbandonedUploadByItsUploadIDAndAbortsIt() throws {
        let server = try MotoServer.shared()
        let storage = try server.storage(bucket: try server.makeBucket(), prefix: "cat")
        let catalog = try Catalog.create(id: "com.example.abandoned", in: storage)
        let upload = try MultipartUpload.begin("archives/B-1.tar", headers: [:], in: storage)
        _ = try upload.upload(part: 1, body: .bytes(SampleContent.noise(1000, seed: 2)), in: storage)

        func shown(_ report: CleanReport) -> [String] { report.files.map { "\($0.path) \($0.size)" } }
        let expected = ["archives/B-1.tar?uploadId=\(upload.uploadID) 1000"]
        #expect(try shown(CatalogClean(catalog).plan().report) == expected)
        let removed = try CatalogClean(catalog).run()
        #expect(shown(removed) == expected && removed.removed)
        #expect(try storage.abandonedWrites(olderThan: .zero) == [])
    }

    /// Which unfinished uploads count as abandoned: those begun before the cutoff (an
    /// unreadable date counts as old), below the catalog's prefix, over every page of
    /// the listing, sized by their parts; one whose parts are gone (aborted meanwhile)
    /// is no longer there to clean.
    @Test func abandonedUploadsAreTheOnesOlderThanTheCutoff() throws {
        let server = try HostileHTTPServer()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let twoHoursAgo = formatter.string(from: Date().addingTimeInterval(-7200))
        formatter.formatOptions = [.withInternetDateTime]
        let tenMinutesAgo = formatter.string(from: Date().addingTimeInterval(-600))
        func upload(_ key: String, _ id: String, _ initiated: String) -> String {
            "<Upload><Key>\(key)</Key><UploadId>\(id)</UploadId><Initiated>\(initiated)</Initiated></Upload>"
        }
        func page(_ uploads: String, next: (String, String)?) -> [UInt8] {
            let truncation =
                next.map {
                    "<IsTruncated>true</IsTruncated><NextKeyMarker>\($0.0)</NextKeyMarker><NextUploadIdMarker>\($0.1)</NextUploadIdMarker>"
                }
                ?? "<IsTruncated>false</IsTruncated>"
            return HostileHTTPServer.response(
                status: "200 OK",
                body: Array(
                    "<ListMultipartUploadsResult>\(uploads)\(truncation)</ListMultipartUploadsResult>".utf8))
        }
        let first = page(
            upload("cat/archives/old.tar", "old", twoHoursAgo) + upload("cat/archives/new.tar", "new", tenMinutesAgo),
            next: ("cat/archives/new.tar", "new"))
        let second = page(
            upload("cat/objects/ab/cd/undated", "undated", "yesterday") + upload("other/archives/x.tar", "foreign", twoHoursAgo)
                + upload("cat/archives/gone.tar", "gone", twoHoursAgo),
            next: nil)
        server.override("b?uploads=&prefix=cat%2F") { _ in first }
        server.override("b?uploads=&prefix=cat%2F&key-marker=cat%2Farchives%2Fnew.tar&upload-id-marker=new") { _ in second }
        // No temporary object of an assembly.
        server.override("b?list-type=2&prefix=cat%2F.zinc-assembly%2F") { _ in
            HostileHTTPServer.response(status: "200 OK", body: Array("<ListBucketResult></ListBucketResult>".utf8))
        }
        for (key, id, sizes) in [
            ("cat/archives/old.tar", "old", [5, 7]), ("cat/archives/new.tar", "new", [3]), ("cat/objects/ab/cd/undated", "undated", []),
        ] {
            let parts = sizes.enumerated().map { "<Part><PartNumber>\($0.offset + 1)</PartNumber><Size>\($0.element)</Size></Part>" }
            let body = Array("<ListPartsResult>\(parts.joined())</ListPartsResult>".utf8)
            server.override("b/\(key)?uploadId=\(id)") { _ in HostileHTTPServer.response(status: "200 OK", body: body) }
        }
        let storage = S3Storage(
            address: S3Address(bucket: "b", prefix: "cat"), configuration: try Self.configuration(endpoint: server.url),
            tuning: Self.impatient)
        func listed(olderThan age: Duration) throws -> [String] {
            try storage.abandonedWrites(olderThan: age).map { "\($0.displayPath) \($0.size)" }
        }
        #expect(try listed(olderThan: .seconds(3600)) == ["archives/old.tar?uploadId=old 12", "objects/ab/cd/undated?uploadId=undated 0"])
        #expect(
            try listed(olderThan: .zero)
                == ["archives/old.tar?uploadId=old 12", "archives/new.tar?uploadId=new 3", "objects/ab/cd/undated?uploadId=undated 0"])
    }

    /// Credentials for a server that does not check them.
    static func configuration(endpoint: String) throws -> AWSConfiguration {
        try AWSConfiguration.load(
            environment: [
                "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                "AWS_CONFIG_FILE": "/nonexistent/c", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/k",
            ],
            endpointOverride: endpoint)
    }

    @Test func aMissingBucketIsAnErrorNamingIt() throws {
        let server = try MotoServer.shared()
        let bucket = "zinc-missing-" + UUID().uuidString.lowercased().prefix(8)
        let storage = try server.storage(bucket: bucket, prefix: "cat")
        let attempts: [(String, () throws -> Void)] = [
            ("readVersioned", { _ = try storage.readVersioned("catalog.json") }),
            ("openForReading", { _ = try storage.openForReading("manifests/B-1.json") }),
            ("list", { _ = try storage.list("objects") }),
            ("write", { _ = try storage.write([1], to: "objects/ab/cd/abcd", .ifAbsent) }),
            ("open", { _ = try Catalog.open(storage) }),
            ("create", { _ = try Catalog.create(id: "com.example.missing", in: storage) }),
        ]
        for (name, attempt) in attempts {
            do {
                try attempt()
                Issue.record("\(name) on a missing bucket succeeded")
            } catch let error as ZincError {
                guard error.code == .remote, let location = error.path, let reason = error.reason else {
                    Issue.record("\(name): \(error) is not a remote error")
                    continue
                }
                #expect(location == "s3://\(bucket)/cat", "\(name)")
                #expect(reason.contains("NoSuchBucket") && reason.contains("HTTP 404"), "\(name): \(reason)")
                #expect(error.description.contains(bucket), "\(name): \(error)")
            }
        }
    }

    /// Nothing listens on the endpoint: a prompt error naming the operation and the
    /// server, after the few attempts allowed.
    @Test func aRefusedConnectionFailsFast() throws {
        let port = try MotoServer.freePort()
        let configuration = try AWSConfiguration.load(
            environment: [
                "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                "AWS_CONFIG_FILE": "/nonexistent/c", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/k",
            ],
            endpointOverride: "http://127.0.0.1:\(port)")
        let storage = S3Storage(address: S3Address(bucket: "bucket", prefix: "cat"), configuration: configuration, tuning: Self.impatient)
        let clock = ContinuousClock()
        for (name, attempt) in [
            ("GET catalog.json", { _ = try storage.readVersioned("catalog.json") }),
            ("PUT catalog.json", { _ = try storage.write([1], to: "catalog.json", .ifAbsent) }),
            ("LIST cat/objects/", { _ = try storage.list("objects") }),
        ] as [(String, () throws -> Void)] {
            let start = clock.now
            do {
                try attempt()
                Issue.record("\(name) reached a closed port")
            } catch let error as ZincError {
                guard error.code == .remote, let location = error.path, let reason = error.reason else {
                    Issue.record("\(error) is not a remote error")
                    continue
                }
                #expect(location == "s3://bucket/cat")
                #expect(reason.hasPrefix(name + ": "), "\(reason)")
                #expect(reason.contains("127.0.0.1") && reason.contains(String(port)), "the error names the server: \(reason)")
            }
            #expect(clock.now - start < .seconds(5), "\(name) took \(clock.now - start)")
        }
    }

    /// A server failing every request: reads are retried as the tuning allows, then the
    /// error names S3's code and the HTTP status; a conditional write is not resent
    /// after a 500 (it may have been done) but is after a 503 (it was not), unless it
    /// writes an object.
    @Test func aFailingServerGivesAnErrorNamingTheStatusAfterTheRetries() throws {
        let server = try HostileHTTPServer()
        let internalError = HostileHTTPServer.response(
            status: "500 Internal Server Error", headers: ["Content-Type": "application/xml"],
            body: Array(
                "<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>".utf8))
        let slowDown = HostileHTTPServer.response(
            status: "503 Slow Down", headers: ["Content-Type": "application/xml"],
            body: Array("<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>".utf8))
        server.override("b/cat/catalog.json") { _ in internalError }
        server.override("b/cat/manifests/B-1.json") { _ in HostileHTTPServer.response(status: "502 Bad Gateway", body: []) }
        server.override("b/cat/busy.json") { _ in slowDown }
        let configuration = try AWSConfiguration.load(
            environment: [
                "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                "AWS_CONFIG_FILE": "/nonexistent/c", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/k",
            ],
            endpointOverride: server.url)
        let storage = S3Storage(
            address: S3Address(bucket: "b", prefix: "cat"), configuration: configuration,
            tuning: S3Tuning.standard.with(attempts: 3, firstDelay: .milliseconds(10)))
        func requests(_ path: String) -> Int { server.requests.filter { $0.path == path }.count }

        #expect(
            throws: ZincError.remote(
                location: "s3://b/cat",
                reason: "GET catalog.json: InternalError (We encountered an internal error. Please try again.), HTTP 500")
        ) {
            try storage.readVersioned("catalog.json")
        }
        #expect(requests("b/cat/catalog.json") == 3)
        // Without a body (a proxy's answer), the status alone.
        #expect(throws: ZincError.remote(location: "s3://b/cat", reason: "GET manifests/B-1.json failed with HTTP 502")) {
            try storage.readVersioned("manifests/B-1.json")
        }
        #expect(requests("b/cat/manifests/B-1.json") == 3)

        // Conditional writes (empty, so that the server needs no body).
        #expect(
            throws: ZincError.remote(
                location: "s3://b/cat",
                reason: "PUT catalog.json: InternalError (We encountered an internal error. Please try again.), HTTP 500")
        ) {
            try storage.write([], to: "catalog.json", .ifAbsent)
        }
        #expect(requests("b/cat/catalog.json") == 4, "a conditional write is sent once after a 500")
        #expect(
            throws: ZincError.remote(location: "s3://b/cat", reason: "PUT busy.json: SlowDown (Please reduce your request rate.), HTTP 503")
        ) {
            try storage.write([], to: "busy.json", .ifAbsent)
        }
        #expect(requests("b/cat/busy.json") == 3, "a refused conditional write is retried")
        // An object's conditional write is resent: a 412 after an attempt that was done
        // says the object is there, as its writer takes it.
        let object = "objects/aa/bb/aabb000000000000000000000000000000000000"
        server.override("b/cat/" + object) { _ in internalError }
        #expect(throws: ZincError.self) { try storage.write([], to: object, .ifAbsent) }
        #expect(requests("b/cat/" + object) == 3, "an object's conditional write is retried after a 500")
    }

    /// Credentials the server does not know: S3's code in the error, the secret nowhere.
    @Test func wrongCredentialsGiveAnErrorWithoutTheSecret() throws {
        let server = try MotoServer.sharedEnforcingAuthentication()
        let secret = "Zinc+Never/Prints+This+Secret0123456789"
        let storage = S3Storage(
            address: S3Address(bucket: "zinc-auth-test", prefix: "cat"),
            configuration: try server.configuration(accessKeyID: "AKIAZINCTESTWRONGKEY", secretAccessKey: secret),
            tuning: Self.impatient)
        let attempts: [(String, () throws -> Void)] = [
            ("readVersioned", { _ = try storage.readVersioned("catalog.json") }),
            ("list", { _ = try storage.list("") }),
            ("write", { _ = try storage.write([1], to: "objects/ab/cd/abcd", .ifAbsent) }),
            ("size", { _ = try storage.size(of: "catalog.json") }),
            ("open", { _ = try Catalog.open(storage) }),
        ]
        for (name, attempt) in attempts {
            do {
                try attempt()
                Issue.record("\(name) with unknown credentials succeeded")
            } catch {
                let text = "\(error)"
                #expect(!text.contains(secret) && !text.contains("Zinc+Never"), "\(name): \(text)")
                #expect(text.contains("HTTP 403"), "\(name): \(text)")
                // HEAD answers have no body, hence no code beyond the status.
                if name != "size" { #expect(text.contains("InvalidAccessKeyId"), "\(name): \(text)") }
            }
        }
    }

    /// `readVersioned` gives a new version after each write, and a swap against an old
    /// one fails without changing anything.
    @Test func versionsChangeWithEachWrite() throws {
        let server = try MotoServer.shared()
        let storage = try server.storage(bucket: try server.makeBucket())
        try storage.write(Array("one".utf8), to: "catalog.json")
        let first = try #require(try storage.readVersioned("catalog.json"))
        try storage.write(Array("two".utf8), to: "catalog.json")
        let second = try #require(try storage.readVersioned("catalog.json"))
        #expect(second.bytes == Array("two".utf8))
        #expect(second.version != first.version)
        #expect(try storage.write(Array("three".utf8), to: "catalog.json", .ifMatch(first.version)) == .conditionFailed)
        #expect(try storage.read("catalog.json") == Array("two".utf8))
        #expect(try storage.write(Array("three".utf8), to: "catalog.json", .ifMatch(second.version)) == .written)
        let third = try #require(try storage.readVersioned("catalog.json"))
        #expect(third.bytes == Array("three".utf8) && third.version != second.version && third.version != first.version)
        #expect(try storage.write(Array("four".utf8), to: "catalog.json", .ifMatch(second.version)) == .conditionFailed)
        #expect(try storage.write(Array("four".utf8), to: "gone.json", .ifMatch(second.version)) == .conditionFailed)
        #expect(try storage.read("gone.json") == nil)
    }

    /// Keys with characters that need encoding in a URL and in a signature.
    @Test func keysWithSpecialCharactersRoundTrip() throws {
        let server = try MotoServer.shared()
        let storage = try server.storage(bucket: try server.makeBucket(), prefix: "my cat/données")
        let paths = [
            "objects/a b/c+d.json", "objects/ünï/çödé.json", "objects/x%41y/~tilde", "objects/q?x=1&y=2/f",
            "objects/semi;colon,comma'quote",
        ]
        for (index, path) in paths.enumerated() { try storage.write([UInt8(index)], to: path) }
        #expect(try storage.list("objects") == paths.sorted())
        for (index, path) in paths.enumerated() {
            #expect(try storage.read(path) == [UInt8(index)], "\(path)")
            #expect(try storage.size(of: path) == 1, "\(path)")
        }
        #expect(try storage.folders(in: "objects") == ["a b", "ünï", "x%41y", "q?x=1&y=2"])
        for path in paths { try storage.delete(path) }
        #expect(try storage.list("") == [])
    }

    /// More keys than one listing page holds (1000): every page is read.
    @Test func listingsFollowContinuationTokens() throws {
        let server = try MotoServer.shared()
        let storage = try server.storage(bucket: try server.makeBucket())
        let count = 1100
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for i in stride(from: lane, to: count, by: 8) {
                do { try storage.write([UInt8(i % 256)], to: String(format: "objects/%02x/%04d", i % 7, i)) } catch { failures.add() }
            }
        }
        #expect(failures.value == 0)
        let listed = try storage.list("objects")
        #expect(listed.count == count && Set(listed).count == count)
        #expect(try storage.folders(in: "objects") == Set((0..<7).map { String(format: "%02x", $0) }))
        #expect(try storage.entries(in: "").count == count)
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
