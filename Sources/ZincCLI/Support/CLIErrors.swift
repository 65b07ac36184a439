import ArgumentParser
import Zinc

/// Failures of the command line itself, typed like the library's: each case holds the
/// offending value and `description` words it. The library's own errors (`ZincError`,
/// and the `SyncError` of a client call, whose cause is reported) reach `ZincCommand.main`
/// unchanged; `ExitStatus.of` gives every error its status.
enum CLIError: Error, CustomStringConvertible {
    /// A Python-spelling global option (`--format`) at the end of the command line.
    case missingValue(option: String)
    /// A Python-spelling global option with a value it does not take.
    case invalidChoice(option: String, value: String, choices: [String])
    /// `sync` finished, but `failed` of its `total` bundles did not sync.
    case bundlesFailedToSync(failed: Int, total: Int)
    /// `serve` given a catalog in a remote store.
    case remoteCatalogNotServable(String)
    /// `update_distro` or `promote` to a new distribution a typo away from `nearest`, without `--create`.
    case newDistroNearExisting(bundle: String, distro: String, nearest: String)
    /// `--repo PATH` (or $ZINC_REPO) names no repo; `suggestion` is one beside it a typo away.
    case repoNotFound(String, suggestion: String?, create: String)
    /// `serve` could not start for a reason other than its address.
    case cannotServe(directory: String, host: String, port: Int, error: any Error)
    /// A line of `rollout status --installs FILE` that is not `ID [KEY=VALUE ...]`.
    case badInstallLine(file: String, line: Int, reason: String)
    /// `sync --export-downloads FILE` could not write FILE, or `--apply-downloads FILE` read no plan in it.
    case downloadsFile(String, reason: String)

    var description: String {
        switch self {
        case .missingValue(let option):
            return "missing value for '\(option)'"
        case .invalidChoice(let option, let value, let choices):
            return "\(option) must be " + choices.map { "'\($0)'" }.joined(separator: " or ") + ", not '\(value)'"
        case .bundlesFailedToSync(let failed, let total):
            return "\(failed) of \(total) bundles failed to sync"
        case .remoteCatalogNotServable(let catalog):
            return "'\(catalog)': serve serves a local folder; a bucket is served by its own endpoint or a CDN in front "
                + "of it (see docs/PUBLISHING.md)"
        case .newDistroNearExisting(let bundle, let distro, let nearest):
            return "bundle '\(bundle)' has no distribution '\(distro)'; did you mean '\(nearest)'? "
                + "(--create creates '\(distro)'; nothing was changed)"
        case .repoNotFound(let path, let suggestion, let create):
            return "no Zinc repo at '\(path)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + " (\(create) creates one)"
        case .cannotServe(let directory, let host, let port, let error):
            return "cannot serve \(directory) on \(host):\(port): \(error)"
        case .badInstallLine(let file, let line, let reason):
            return "\(file), line \(line): \(reason); each line is an install: ID [KEY=VALUE ...]"
        case .downloadsFile(let file, let reason):
            return "\(file): \(reason)"
        }
    }
}

/// Every error `zinc` prints, in one style: `zinc: error: what went wrong`, starting in
/// lower case as the library's messages do. ArgumentParser's usage errors arrive as
/// `Error: Missing expected argument…` followed by the usage lines, which are kept.
func errorText(_ message: String) -> String {
    var text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
    // "Missing …" becomes "missing …", but an initialism ("URL …") stays as it is.
    if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true {
        text = first.lowercased() + text.dropFirst()
    }
    return "zinc: error: " + text + (text.hasSuffix("\n") ? "" : "\n")
}

/// What to type to get past a library error whose remedy is an option of `zinc`'s
/// (the library's messages name no options).
func remedy(for error: any Error) -> String? {
    switch (error as? ZincError)?.code {
    case .signerRequired?:
        "give --sign-key FILE (or set ZINC_SIGNING_KEY) to sign it, or --unsigned to change it anyway"
    default:
        nil
    }
}
