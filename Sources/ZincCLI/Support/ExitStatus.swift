import ArgumentParser
import Zinc

/// The statuses `zinc` exits with. Scripts branch on them, so each means one thing and
/// they are listed in `zinc --help`, the README and docs/COMMANDS.md.
enum ExitStatus {
    /// Done.
    static let success = ExitCode.success
    /// Something went wrong; one `zinc: error: …` line says what.
    static let failure = ExitCode.failure
    /// `verify` ran to the end and found problems (it printed them): distinct from 1, a
    /// check that could not run, so that a monitor can tell a damaged catalog from an
    /// unreachable one.
    static let problemsFound = ExitCode(2)
    /// The command line was wrong (sysexits' EX_USAGE, as ArgumentParser uses).
    static let usage = ExitCode.validationFailure

    /// The one place an error gets its status: a wrong command line (ArgumentParser's
    /// errors, a Python-spelling global option, an invalid `--version` value) is
    /// `usage`, help is `success`, an `ExitCode` is itself, and every failure of the work
    /// (`ZincError`, a client call's failure, `CLIError`, …) is `failure`.
    static func of(_ error: any Error) -> ExitCode {
        switch error {
        case CLIError.missingValue, CLIError.invalidChoice: return usage
        // Only ever a value typed on the command line (a catalog holds numbers).
        case let error as ZincError where error.code == .invalidVersionSpec: return usage
        default: return ZincCommand.exitCode(for: error)
        }
    }

    /// For the help text.
    static let summary = """
        Exit status: 0 done; 1 error (one 'zinc: error: ...' line on stderr); 2 verify \
        found problems; 64 usage error (a wrong command line).
        """
}
