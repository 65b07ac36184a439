import Testing
import Zinc
import ZincTestSupport

/// Flavorspecs: matching, the catalog's store, and what an import with flavors writes.
@Suite struct FlavorTests {
    let dir: TemporaryDirectory
    let catalog: Catalog
    static let devices = #"{"phone": ["- *@2x.png", "+ *"], "tablet": ["- *~phone.*", "+ *"]}"#

    init() throws {
        dir = try TemporaryDirectory()
        catalog = try Catalog.create(id: "com.example.app", in: FileStorage(root: dir.at("cat")))
        // These tests look at the archives an import writes: only a catalog keeping all does.
        try catalog.setArchivePolicy(.all)
    }

    func spec(_ json: String) throws -> Flavorspec {
        try Flavorspec.parse(Array(json.utf8), source: "spec.json")
    }

    @Test func theFirstMatchingRuleDecidesAndNoMatchIncludes() throws {
        let spec = try spec(#"{"hd": ["+ *@2x.*", "- images/*"], "sd": ["- *@2x.*"]}"#)
        #expect(spec.flavors(for: "images/logo@2x.png") == ["hd"])
        #expect(spec.flavors(for: "images/logo.png") == ["sd"])
        #expect(spec.flavors(for: "sounds/deep/click.caf") == ["hd", "sd"])
    }

    @Test func refusesMalformedFlavorspecsNamingTheFile() throws {
        let cases = [
            #"["+ *"]"#: "expected an object of flavor name -> list of rules",
            #"{"phone": "+ *"}"#: "flavor 'phone' is not a list of rules",
            #"{"phone": [1]}"#: "flavor 'phone' has a rule that is not a string",
            #"{"phone": ["*.png"]}"#: "flavor 'phone': rule '*.png' does not start with '+ ' or '- '",
        ]
        for (json, reason) in cases {
            let path = try dir.write("bad.json", json)
            #expect(throws: ZincError.corruptFile(path: path, reason: "not a valid flavorspec: " + reason)) {
                try Flavorspec.load(file: path)
            }
        }
        #expect(try Flavorspec.load(file: dir.at("missing.json")) == nil)
    }

    @Test func storesListsLoadsAndDeletesFlavorspecs() throws {
        let devices = try spec(Self.devices)
        try catalog.flavorspecs.save(devices, as: "devices")
        try catalog.flavorspecs.save(try spec(#"{"all": []}"#), as: "all")
        #expect(try catalog.flavorspecs.names() == ["all", "devices"])
        #expect(
            String(decoding: try dir.read("cat/config/flavorspecs/devices.json"), as: UTF8.self)
                == #"{"phone":["- *@2x.png","+ *"],"tablet":["- *~phone.*","+ *"]}"#)
        #expect(try catalog.flavorspecs.load("devices") == devices)

        try catalog.flavorspecs.delete("all")
        #expect(try catalog.flavorspecs.names() == ["devices"])
        let missing = ZincError.flavorspecNotStored(name: "all", catalog: dir.at("cat"))
        #expect(throws: missing) { try catalog.flavorspecs.delete("all") }
        #expect(throws: missing) { try catalog.flavorspecs.load("all") }
        #expect(
            throws: ZincError.invalidName(
                kind: "flavor name", value: "../x",
                reason: "it contains '/' (a name may hold any character but slashes, '~' and control characters)")
        ) {
            try catalog.flavorspecs.save(devices, as: "../x")
        }
    }

    @Test func resolvesAFileFirstThenAStoredName() throws {
        try catalog.flavorspecs.save(try spec(#"{"stored": ["+ *"]}"#), as: "devices")
        #expect(try catalog.flavorspecs.resolve("devices").names == ["stored"])
        let file = try dir.write("devices", Self.devices)
        #expect(try catalog.flavorspecs.resolve(file).names == ["phone", "tablet"])
        #expect(throws: ZincError.flavorspecNotFound(spec: "nope/x.json", catalog: dir.at("cat"))) {
            try catalog.flavorspecs.resolve("nope/x.json")
        }
    }

    /// Three images in both densities: phone gets a.png, b.png, c.png; tablet all six;
    /// "one" holds a single file, so it gets no archive.
    func importDevices(includeMasterArchive: Bool) throws -> Manifest {
        for name in ["a", "b", "c"] {
            try dir.write("src/\(name).png", SampleContent.noise(700, seed: UInt64(name.utf8.first!)))
            try dir.write("src/\(name)@2x.png", SampleContent.noise(1400, seed: UInt64(name.utf8.first!) + 100))
        }
        let spec = try spec(String(Self.devices.dropLast()) + #", "one": ["+ a.png", "- *"]}"#)
        let options = BundleImportOptions(flavorspec: spec, includeMasterArchive: includeMasterArchive)
        #expect(try catalog.updateBundle("Icons", from: dir.at("src"), options: options) == .created(version: 1))
        return try Manifest.parse(dir.read("cat/manifests/Icons-1.json"), path: "Icons-1.json")
    }

    @Test func writesFlavorsToTheManifestAndOneArchivePerFlavor() throws {
        let manifest = try importDevices(includeMasterArchive: false)
        #expect(manifest.flavors == ["one", "phone", "tablet"])
        #expect(manifest.files["a.png"]?.flavors == ["one", "phone", "tablet"])
        #expect(manifest.files["a@2x.png"]?.flavors == ["tablet"])
        #expect(manifest.files["c.png"]?.flavors == ["phone", "tablet"])
        #expect(dir.files(under: "cat/archives") == ["Icons-1~phone.tar", "Icons-1~tablet.tar"])

        for flavor in ["phone", "tablet"] {
            let members = try #require(TarListing.members(dir.read("cat/archives/Icons-1~\(flavor).tar")))
            let expected = manifest.paths(flavor: flavor).map { manifest.files[$0]!.object }
            #expect(members.map(\.name) == expected.map(\.fileName).sorted())
            for object in expected {
                #expect(members.first { $0.name == object.fileName }?.data == (try dir.read("cat/" + object.preferredPath)))
            }
        }
    }

    @Test func writesTheAllFilesArchiveOnlyWhenAsked() throws {
        _ = try importDevices(includeMasterArchive: true)
        #expect(dir.files(under: "cat/archives") == ["Icons-1.tar", "Icons-1~phone.tar", "Icons-1~tablet.tar"])
        #expect(try TarListing.members(dir.read("cat/archives/Icons-1.tar"))?.count == 6)
    }
}
