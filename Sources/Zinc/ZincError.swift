#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every failure Zinc reports to a user. Each case names the offending file or value,
/// so a build pipeline log says what to fix without a debugger.
public enum ZincError: Error, Equatable, Sendable {
    case catalogExists(String)
    case catalogNotFound(String)
    case unsupportedFormat(path: String, format: String)
    case corruptFile(path: String, reason: String)
    case invalidName(kind: String, value: String, reason: String)
    case invalidPath(String, reason: String)
    case sourceProblem(path: String, reason: String)
    case emptySource(String)
    case bundleNotFound(String)
    case versionNotFound(bundle: String, version: String)
    case distroNotFound(bundle: String, distro: String)
    case invalidVersionSpec(String)
    case io(path: String, operation: String, errno: Int32)
    case conflict(String)
    case invalidArgument(String)
    case integrity(path: String, reason: String)
    /// A remote store (an S3 bucket) refused or failed a request; `reason` names the
    /// operation, the key and the store's own error code, never a credential.
    case remote(location: String, reason: String)
    /// An ignore pattern (`--exclude`, `.zincignore`) that cannot be used; `source` is
    /// where it came from (`.zincignore:3`, `--exclude`).
    case invalidPattern(source: String, pattern: String, reason: String)
    /// A signing key or public key file that cannot be used (or written).
    case keyFile(path: String, reason: String)
    /// A catalog signature that is malformed, made by no trusted key, or covering other
    /// bytes than the file it signs; `path` is the signature file or the file signed.
    case signature(path: String, reason: String)
}

extension ZincError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .catalogExists(let path):
            return "a catalog already exists at '\(path)'"
        case .catalogNotFound(let location):
            return "no catalog at '\(location)'"
        case .unsupportedFormat(let path, let format):
            return "'\(path)' is in catalog format '\(format)'; this zinc reads and writes format '1' only"
        case .corruptFile(let path, let reason):
            return "'\(path)' is not a valid Zinc file: \(reason)"
        case .invalidName(let kind, let value, let reason):
            return "invalid \(kind) '\(value)': \(reason)"
        case .invalidPath(let path, let reason):
            return "invalid path '\(path)': \(reason)"
        case .sourceProblem(let path, let reason):
            return "'\(path)': \(reason)"
        case .emptySource(let path):
            return "source folder '\(path)' holds no files"
        case .bundleNotFound(let bundle):
            return "no bundle '\(bundle)' in the catalog"
        case .versionNotFound(let bundle, let version):
            return "bundle '\(bundle)' has no version \(version)"
        case .distroNotFound(let bundle, let distro):
            return "bundle '\(bundle)' has no distribution '\(distro)'"
        case .invalidVersionSpec(let spec):
            return "invalid version '\(spec)': expected a number, 'latest' or '@DISTRO'"
                + (VersionSpec.distroSpelling(of: spec).map { "; did you mean '\($0)'?" } ?? "")
        case .io(let path, let operation, let code):
            return "cannot \(operation) '\(path)': \(String(cString: strerror(code)))"
        case .conflict(let message):
            return message
        case .invalidArgument(let message):
            return message
        case .integrity(let path, let reason):
            return "'\(path)' is damaged: \(reason)"
        case .remote(let location, let reason):
            return "\(location): \(reason)"
        case .invalidPattern(let source, let pattern, let reason):
            return "\(source): '\(pattern)' \(reason)"
        case .keyFile(let path, let reason):
            return "key file '\(path)': \(reason)"
        case .signature(let path, let reason):
            return "'\(path)': signature check failed: \(reason)"
        }
    }
}
