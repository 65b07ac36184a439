// An iOS-style app's use of ZincClient, written from docs/CLIENT.md alone: `LessonStore`
// is the model a SwiftUI screen would observe. Here a command line plays the screen:
// it launches the store and prints what the screen would show.
//
//   swift run LessonsAppExample CATALOG_URL BUNDLE [APP_FOLDER [SEED_FOLDER]]
//
// `make portable-check` builds it in the configuration of an iOS app (no libcurl, no
// OpenSSL), and CI runs it against a catalog on disk.

import Foundation
import ZincClient

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let catalog = URL(string: arguments[0]), catalog.scheme != nil else {
    print("usage: LessonsAppExample CATALOG_URL BUNDLE [APP_FOLDER [SEED_FOLDER]]")
    exit(2)
}
let appFolder = URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : "lessons-app", isDirectory: true)
let seed = arguments.count > 3 ? URL(fileURLWithPath: arguments[3], isDirectory: true) : nil

let store = LessonStore(
    catalog: catalog, bundle: arguments[1], repoFolder: appFolder.appendingPathComponent("zinc"), seed: seed)
await store.launch()
switch store.state {
case .ready(let folder, let version):
    let progress = store.progress
    print("Lessons version \(version) in \(folder.path) (\(progress.completedUnitCount) of \(progress.totalUnitCount) bytes downloaded)")
case .failed(let message, _):
    print(message)
    exit(1)
case .loading:
    print("still loading")
    exit(1)
}
