import Foundation
import Testing
import Zinc
import ZincCurl
import ZincTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `zinc serve` as clients and people meet it: its addresses, and a port it cannot have.
@Suite struct ServeCommandTests {
    static let id = "com.mindsnacks.french"
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        _ = try dir.zinc(["create_catalog", "--id", Self.id, "--dest", "cat"])
        _ = try dir.zinc(
            ["update_bundle", "--catalog", "cat", "--name", "BasicAdjectives", "--source", "src", "--quiet"])
        // An archive to serve: master names the version.
        _ = try dir.zinc(
            ["update_distro", "--catalog", "cat", "--id", "BasicAdjectives", "--name", "master", "--version", "1"])
        try dir.write("secret.txt", "outside the catalog")
    }

    func get(_ url: String, ranges: [Range<Int64>] = []) throws -> CollectedResponse {
        try HTTPClient().collect(HTTPRequest(.get, url, ranges: ranges), limit: 1 << 24)
    }

    /// JavaZinc and the Python tool are given a base URL and ask for
    /// `<base>/<catalog id>/catalog.json.gz`: the catalog answers there as at `/`.
    @Test func aSingleCatalogIsAlsoServedUnderItsID() throws {
        let server = try ServeProcess(catalog: "cat", in: dir.path, startupLines: 2)
        let base = server.url
        #expect(
            server.startupLines == [
                "Serving \(dir.at("cat")) on \(base)",
                "Catalog '\(Self.id)' is also at \(base)\(Self.id)/: give clients that add the catalog id to their URL "
                    + "(JavaZinc, the Python tool) the base URL \(base)",
            ])

        let index = try get(base + Self.id + "/catalog.json.gz")
        #expect(index.failure == nil)
        #expect(index.head.status == 200)
        #expect(index.body == (try dir.read("cat/catalog.json.gz")))
        #expect(index.head["Cache-Control"] == "max-age=300")
        #expect(try get(base + "catalog.json.gz").body == index.body)

        let archive = try #require(dir.files(under: "cat/archives").first)
        let part = try get(base + Self.id + "/archives/" + archive, ranges: [512..<1024])
        #expect(part.head.status == 206)
        #expect(part.body == Array(try dir.read("cat/archives/" + archive)[512..<1024]))

        // The prefix is only dropped: what could not be reached at / cannot be under it.
        try FileManager.default.createSymbolicLink(atPath: dir.at("cat/escape"), withDestinationPath: dir.at("secret.txt"))
        for path in ["%2e%2e/secret.txt", "..%2fsecret.txt", "%2e%2e%2fsecret.txt", "escape", ".zinc.lock", "", "objects/"] {
            let response = try get(base + Self.id + "/" + path)
            #expect(response.head.status == 404, "\(path)")
            #expect(!String(decoding: response.body, as: UTF8.self).contains("outside the catalog"), "\(path)")
        }
        #expect(try get(base + Self.id).head.status == 404)
        #expect(try get(base + "com.other/catalog.json.gz").head.status == 404)
    }

    /// A busy port is one line naming it, exit status 1, not the socket call's errno.
    /// `serve` takes its catalog from $ZINC_CATALOG, as every other command does.
    @Test func theCatalogMayComeFromTheEnvironment() throws {
        let server = try ServeProcess(arguments: ["serve", "--port", "0"], in: dir.path, environment: ["ZINC_CATALOG": "cat"])
        #expect(server.startupLines.first == "Serving \(dir.at("cat")) on \(server.url)")
        #expect(try get(server.url + "catalog.json.gz").body == (try dir.read("cat/catalog.json.gz")))
    }

    @Test func aPortInUseIsOneLine() throws {
        let listener = try ListeningSocket()
        defer { listener.close() }
        let result = try dir.zinc.run(["serve", "--catalog", "cat", "--port", "\(listener.port)"])
        #expect(result.status == 1)
        #expect(result.stderr == "zinc: error: port \(listener.port) on 127.0.0.1 is already in use\n")
        #expect(result.stdout == "")
    }
}

/// A socket listening on a free loopback port, as another server would hold it.
struct ListeningSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw POSIXError(.EADDRINUSE) }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        closeDescriptor(descriptor)
    }
}

// Inside ListeningSocket, `close` names its own method.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)

}
