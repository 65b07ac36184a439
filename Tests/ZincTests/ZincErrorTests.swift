import Testing
import Zinc

/// The words of each typed error: what a user reads in `zinc: error: …`, and what scripts
/// and the tests of other suites match.
@Suite struct ZincErrorTests {
    static let holders = [
        ZincError.LockHolder(exclusive: true, pid: 7, host: "ci-1"),
        ZincError.LockHolder(exclusive: false, pid: 9, host: "ci-2"),
    ]

    @Test(arguments: [
        (ZincError.emptyCatalogLocation, "the catalog location is empty"),
        (.locationNamesNoFolder("file://"), "'file://' names no folder"),
        (.notALocalCatalog("s3://b/c"), "'s3://b/c': only local catalogs (a path or file:// URL) are supported here"),
        (
            .unknownStorageScheme(location: "gs://b", scheme: "gs", known: ["file", "s3"]),
            "'gs://b': no storage backend for gs:// (known: file://, s3://, or a plain path)"
        ),
        (
            .flavorNotFound(bundle: "B", version: 2, flavor: "phone", flavors: []),
            "bundle 'B' version 2 has no flavor 'phone' (it has no flavors)"
        ),
        (
            .flavorNotFound(bundle: "B", version: 2, flavor: "tv", flavors: ["phone", "tablet"]),
            "bundle 'B' version 2 has no flavor 'tv' (its flavors: phone, tablet)"
        ),
        (.flavorspecFileNotFound("f.json"), "no flavorspec file at 'f.json'"),
        (.flavorspecNotStored(name: "all", catalog: "/c"), "no flavorspec named 'all' stored in catalog '/c'"),
        (.flavorspecNotFound(spec: "x", catalog: "/c"), "no flavorspec file 'x' and no flavorspec named 'x' stored in catalog '/c'"),
        (.cloneDestinationIsSymlink("/o/B-1"), "'/o/B-1' is a symlink; a clone never writes through one"),
        (.cloneDestinationExists("/o/B-1"), "'/o/B-1' already exists; remove it or clone into another folder"),
        (.tarMemberNameTooLong("n"), "tar member name 'n' is longer than 100 bytes"),
        (.negativeTarMemberSize(name: "n", size: -1), "negative tar member size"),
        (.pruneKeepsNoVersion(keepLast: 0), "keeping the last 0 versions would delete every version; keep at least 1"),
        (
            .catalogLocked(location: "/c", holders: holders, waited: .seconds(60)),
            "'/c' is locked (an exclusive lock of pid 7 on ci-1, a shared lock of pid 9 on ci-2); gave up after waiting 60.0 seconds"
        ),
        (
            .lockNotRefreshed(lock: "/c/locks/x", stalledFor: .seconds(90)),
            "the lock '/c/locks/x' was not refreshed for 90.0 seconds (this process stalled, or the storage failed); "
                + "another writer may have taken it as stale, so nothing was committed"
        ),
        (.lockRemoved(lock: "/c/locks/x"), "the lock '/c/locks/x' was removed by another writer; nothing was committed"),
        (
            .versionFileExists("/c/manifests/B-1.json.gz"),
            "'/c/manifests/B-1.json.gz' already exists; another writer used this version number"
        ),
        (.objectVanished(sha: "ab"), "object ab vanished while it was being stored"),
        (.duplicateIndexVersion(bundle: "B", version: 1), "refusing to write an index that lists version 1 of 'B' twice"),
        (
            .nextVersionBelowListed(bundle: "B", version: 4),
            "refusing to write an index whose next_version of 'B' is below version 4"
        ),
        (.indexKeptChanging(location: "/c", attempts: 8), "the index of '/c' kept changing under this writer (8 attempts); try again"),
        (.indexCopiesKeptChanging(location: "/c"), "the index of '/c' kept changing while its copies were written; try again"),
        (.indexChangedWhileSigning(location: "/c"), "the index of '/c' kept changing while it was signed; try again"),
        (
            .indexChangedDuringCommit(location: "/c", bundle: "B", version: 3),
            "the index of '/c' kept changing while version 3 of 'B' was committed; try again"
        ),
        (
            .reservedVersionTaken(location: "/c", bundle: "B", version: 3),
            "version 3 of 'B', reserved by this import, is already listed in the index of '/c' by another writer; nothing was committed"
        ),
        (.versionNumbersExhausted(bundle: "B"), "bundle 'B' has used every version number up to 2147483647"),
        (
            .versionsReferenced(bundle: "B", distributions: [2: ["master", "test"], 1: ["_master"]]),
            "version 1 of 'B' is referenced by distribution '_master'; "
                + "version 2 of 'B' is referenced by distributions 'master', 'test'; nothing was deleted"
        ),
        (.publishSourceVanished("/c/objects/ab"), "'/c/objects/ab' vanished while publishing; run publish again"),
        (.publishDestinationChanged("s3://b/objects/ab"), "'s3://b/objects/ab' appeared meanwhile with other content"),
        (
            .publishDestinationDiffers(destination: "s3://b/objects/ab", source: "/c/objects/ab", size: 3, expected: 5),
            "'s3://b/objects/ab' differs from '/c/objects/ab' (3 bytes, not 5): another writer or another catalog wrote "
                + "the destination; nothing was published"
        ),
        (
            .publishDestinationIsOtherCatalog(destination: "s3://b", id: "x", expected: "y"),
            "'s3://b' is the catalog 'x', not 'y'; nothing was published"
        ),
        (
            .publishDestinationHasForeignVersions(destination: "s3://b", source: "/c", versions: ["B": [7, 8, 9], "A": [2, 3, 4]]),
            "'s3://b' lists versions '/c' never had (A v2, A v3, A v4, B v7, B v8, …): another writer published there; "
                + "nothing was replaced"
        ),
        (
            .publishDestinationHasForeignVersions(destination: "s3://b", source: "/c", versions: ["A": [2]]),
            "'s3://b' lists versions '/c' never had (A v2): another writer published there; nothing was replaced"
        ),
    ])
    func describes(_ error: ZincError, _ message: String) {
        #expect(error.description == message)
    }

    /// The codes are API: an app's `switch` and its logs depend on these strings.
    static let classified: [(ZincError, String, String?)] = [
        (.catalogExists("/c"), "catalog_exists", "/c"),
        (.catalogNotFound("/c", lookedIn: ["/a"]), "catalog_not_found", "/c"),
        (.emptyCatalogLocation, "invalid_location", nil),
        (.unknownStorageScheme(location: "gs://b", scheme: "gs", known: []), "invalid_location", "gs://b"),
        (.unsupportedFormat(path: "/c/catalog.json", format: "2"), "unsupported_format", "/c/catalog.json"),
        (.corruptFile(path: "m", reason: "r"), "corrupt_file", "m"),
        (.integrity(path: "/c", reason: "r"), "integrity", "/c"),
        (.io(path: "/f", operation: "open", errno: 2), "io", "/f"),
        (.remote(location: "s3://b/c", reason: "r"), "remote", "s3://b/c"),
        (.invalidName(kind: "bundle name", value: "a/b", reason: "r"), "invalid_name", nil),
        (.invalidPath("../x", reason: "r"), "invalid_path", "../x"),
        (.sourceProblem(path: "/s/f", reason: "r"), "invalid_source", "/s/f"),
        (.invalidPattern(source: "--exclude", pattern: "/", reason: "r"), "invalid_source", nil),
        (.bundleNotFound("B"), "bundle_not_found", nil),
        (.versionNotFound(bundle: "B", version: "9"), "version_not_found", nil),
        (.distroNotFound(bundle: "B", distro: "qa"), "distro_not_found", nil),
        (.flavorNotFound(bundle: "B", version: 1, flavor: "tv", flavors: []), "flavor_not_found", nil),
        (.flavorspecNotStored(name: "all", catalog: "/c"), "flavorspec_not_found", "/c"),
        (.invalidVersionSpec("two"), "invalid_version_spec", nil),
        (.pruneKeepsNoVersion(keepLast: 0), "invalid_argument", nil),
        (.cloneDestinationExists("/o/B-1"), "destination_exists", "/o/B-1"),
        (.catalogLocked(location: "/c", holders: holders, waited: .seconds(1)), "catalog_locked", "/c"),
        (.indexKeptChanging(location: "/c", attempts: 8), "concurrent_change", "/c"),
        (.objectVanished(sha: "ab"), "concurrent_change", nil),
        (.duplicateIndexVersion(bundle: "B", version: 1), "inconsistent_index", nil),
        (.versionNumbersExhausted(bundle: "B"), "version_numbers_exhausted", nil),
        (.versionsReferenced(bundle: "B", distributions: [1: ["master"]]), "versions_referenced", nil),
        (.publishDestinationChanged("s3://b/x"), "foreign_destination", "s3://b/x"),
        (.keyFile(path: "k", reason: "r"), "key_file", "k"),
        (.signature(path: "catalog.json.sig", reason: "r"), "invalid_signature", "catalog.json.sig"),
        (.signedCatalogNeedsSigner("/c"), "signer_required", "/c"),
    ]

    @Test(arguments: classified)
    func classifies(_ error: ZincError, _ code: String, _ path: String?) {
        #expect(error.code == ZincError.Code(rawValue: code))
        #expect(error.path == path)
        #expect(error.errno == (error.code == .io ? 2 : nil))
    }
}
