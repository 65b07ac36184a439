// A program that embeds Zinc: it publishes a folder as a bundle of a catalog, then
// keeps a client repo in sync with that catalog. The talk's whole round trip through
// the libraries, with no `zinc` command involved.
//
//   swift run EmbeddingExample [SOURCE_FOLDER]      (default: Examples/BasicAdjectives)

import Foundation
import Zinc
import ZincClient

let source = CommandLine.arguments.dropFirst().first ?? "Examples/BasicAdjectives"
let work = (NSTemporaryDirectory() as NSString).appendingPathComponent("zinc-embedding-\(getpid())")
defer { try? FileManager.default.removeItem(atPath: work) }

do {
    // Publisher: a catalog, a version of the bundle, and `master` pointing at it.
    let catalog = try Catalog.create(id: "com.example.embedded", in: FileStorage(root: work + "/catalog"))
    let version: Int
    switch try catalog.updateBundle("Lesson", from: source) {
    case .created(let created), .unchanged(let created): version = created
    }
    try DistroUpdate(catalog, bundle: "Lesson", distro: "master", to: .number(version)).run()
    print("Published Lesson version \(version) in \(catalog.storage.location)")

    // Client: a repo that tracks master and syncs from the catalog's URL (file:// here,
    // https:// for a catalog on a web server or CDN).
    let repo = try Repo.initialize(at: URL(fileURLWithPath: work + "/repo"))
    try await repo.track(url: URL(fileURLWithPath: work + "/catalog"), bundle: "Lesson")
    let report = try await repo.sync()
    for bundle in report.bundles { print(bundle.line) }
    if report.failed { exit(1) }

    let folder = repo.bundleFolder(catalog: "com.example.embedded", bundle: "Lesson", version: version)
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
        (try? folder.appendingPathComponent($0).resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
    }
    print("The app reads \(files.count) files from \(folder.path):")
    for file in files.sorted() { print("  " + file) }
} catch {
    print("error: \(error)")
    exit(1)
}
