import Testing
import Zinc

/// The one list of a version's files, as FORMAT.md names them.
@Suite struct VersionFilesTests {
    let files = VersionFiles(bundle: "Level-x", version: 3)

    @Test func namesEveryFileOfAVersion() {
        #expect(
            files.documents == [
                "manifests/Level-x-3.json", "manifests/Level-x-3.json.gz", "chunks/Level-x-3.json.gz", "sizes/Level-x-3.json.gz",
                "lmfo/Level-x-3.json", "manifest-chunks/Level-x-3.json.gz", "manifest-chunks/Level-x-3.manifest.json.gz",
                "digests/Level-x-3.txt.gz", "digests/Level-x-3.chunks.json.gz",
            ])
        #expect(files.all(archiveScopes: [nil, "phone"]) == files.documents + ["archives/Level-x-3.tar", "archives/Level-x-3~phone.tar"])
    }

    /// A bundle name may hold '-' (a descriptor splits at its last one), never '~': the
    /// archives of version 3 are told from those of 33 and of another bundle.
    @Test(arguments: [
        ("archives/Level-x-3.tar", true), ("archives/Level-x-3~phone.tar", true), ("archives/Level-x-33.tar", false),
        ("archives/Level-x-3~phone.tar.tmp", false), ("archives/x-3.tar", false), ("archives/Level-x-3", false),
    ])
    func tellsItsArchivesFromOthers(path: String, isArchive: Bool) {
        #expect(files.isArchive(path) == isArchive)
    }
}
