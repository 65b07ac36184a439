import Logging

/// The options the Python tool takes before its command (`zinc --format json
/// catalog:list -c CAT`): `--format pretty|json`, `--loglevel info|debug` and
/// `-C/--config FILE`. ArgumentParser only parses options after a subcommand's name,
/// so `main` splits these off first, and the Python spellings read them from `current`.
struct PythonGlobalOptions: Sendable {
    enum Format: String, Sendable {
        case pretty, json
    }

    var format = Format.pretty
    var logLevel = Logger.Level.info
    /// The Python tool's client config (bookmarks, storages, lock coordinators), which
    /// zinc does not read: `-c` takes the catalog's path or URL itself.
    var config: String?

    /// The options given to this run, for the Python spellings that honour them. They
    /// are fixed for the process, so they are read from its arguments (`main` has
    /// already refused invalid ones).
    static let current = (try? split(Array(CommandLine.arguments.dropFirst())))??.options ?? PythonGlobalOptions()

    /// The options in front of a Python spelling, and the arguments from that spelling
    /// on; nil when the arguments do not start with such options followed by one.
    static func split(_ arguments: [String]) throws(CLIError) -> (options: PythonGlobalOptions, rest: [String])? {
        var options = PythonGlobalOptions()
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let word = arguments[index]
            let (name, inline) =
                word.firstIndex(of: "=").map { (String(word[..<$0]), String(word[word.index(after: $0)...])) }
                ?? (word, nil)
            guard ["--format", "--loglevel", "-C", "--config"].contains(name) else { return nil }
            let value: String
            if let inline {
                value = inline
                index += 1
            } else {
                guard index + 1 < arguments.count else { throw .missingValue(option: name) }
                value = arguments[index + 1]
                index += 2
            }
            switch name {
            case "--format":
                guard let format = Format(rawValue: value) else {
                    throw .invalidChoice(option: name, value: value, choices: ["pretty", "json"])
                }
                options.format = format
            case "--loglevel":
                // The Python tool's two choices: its own default shows info messages too.
                guard let level = ["info": Logger.Level.info, "debug": .debug][value] else {
                    throw .invalidChoice(option: name, value: value, choices: ["info", "debug"])
                }
                options.logLevel = level
            default:
                options.config = value
            }
        }
        guard index > 0, index < arguments.count, arguments[index].contains(":") else { return nil }
        return (options, Array(arguments[index...]))
    }
}
