import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an import says when Ctrl-C (or SIGTERM) stops it (`InterruptNotice`): whether
/// its version was committed and, if not, what it leaves for `clean`.
enum InterruptedImport {
    /// Runs `body` (the import, writing through `interruption.storage`) with the signals
    /// trapped; `bar` is ended before the message is written.
    static func run<T>(
        _ interruption: ImportInterruption, bundle: String, catalog: CatalogReference, bar: ProgressBar, _ body: () throws -> T
    ) rethrows -> T {
        try InterruptNotice.run(bar: bar, message: { message(stopping: interruption, bundle: bundle, catalog: catalog) }, body)
    }

    /// The message, after stopping the import's commits.
    static func message(stopping interruption: ImportInterruption, bundle: String, catalog: CatalogReference) -> String {
        do {
            switch try interruption.stop() {
            case .committed(let name, let version):
                return "zinc: interrupted after version \(version) of '\(name)' was committed: the catalog lists it\n"
            case .notCommitted(let files, let bytes, let recordedAt):
                var text = "zinc: interrupted: no version of '\(bundle)' was committed; the catalog lists what it listed before\n"
                if let recordedAt, files > 0 {
                    let removable = recordedAt.addingTimeInterval(Catalog.indexCacheLifetime.inSeconds)
                    text +=
                        "zinc: the \(Clean.files(files)) (\(HumanFormat.bytes(bytes))) this import wrote are recorded as never listed; "
                        + "\(catalog.hint("clean", "--force")) removes them from \(GraceOption.describe(removable))\n"
                }
                return text
            }
        } catch {
            return
                "zinc: interrupted; could not tell whether the version of '\(bundle)' was committed (\(error)); run \(catalog.hint("verify"))\n"
        }
    }
}
