import ArgumentParser
import Zinc

extension ZincCommand {
    /// `unknown option '--sorce'. Did you mean '--source'?` for a command line that
    /// misses a required option because it mistyped it: ArgumentParser reports the
    /// missing option first, which sends the user looking for an option they did give.
    /// Nil when every option is one the command knows, or `error`, the parse error, is
    /// not about a missing option (ArgumentParser names an unknown option itself then).
    static func unknownOptionMessage(_ arguments: [String], error: any Error) -> String? {
        guard fullMessage(for: error).contains("Missing expected argument") else { return nil }
        let (command, rest) = command(for: arguments)
        guard command != ZincCommand.self else { return nil }
        let known = optionNames(of: command)
        let typed = rest.prefix { $0 != "--" }.filter { $0.hasPrefix("--") && $0.count > 2 }
        guard let unknown = typed.map({ String($0.prefix { $0 != "=" }) }).first(where: { !known.contains($0) }) else {
            return nil
        }
        let suggestion = Spelling.nearest(to: unknown, among: known.sorted()).map { ". Did you mean '\($0)'?" } ?? ""
        return "unknown option '\(Names.printable(unknown))'\(suggestion)\n" + usageLines(for: command)
    }

    /// The subcommand the leading words name (`repo verify`), and the arguments after them.
    private static func command(for arguments: [String]) -> (ParsableCommand.Type, ArraySlice<String>) {
        var command: ParsableCommand.Type = ZincCommand.self
        var rest = arguments[...]
        while let word = rest.first,
            let next = command.configuration.subcommands.first(where: {
                $0.configuration.commandName == word || $0.configuration.aliases.contains(word)
            })
        {
            command = next
            rest = rest.dropFirst()
        }
        return (command, rest)
    }

    /// Every `--long` name the command answers to, hidden ones included, as its help
    /// lists them.
    private static func optionNames(of command: ParsableCommand.Type) -> Set<String> {
        let help = helpMessage(for: command, includeHidden: true, columns: 10_000)
        let words = help.split { !($0 == "-" || $0 == "_" || $0.isLetter || $0.isNumber) }
        return Set(words.filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
    }
}
