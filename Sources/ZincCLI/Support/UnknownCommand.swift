import ArgumentParser
import Zinc

extension ZincCommand {
    /// Every name a command answers to (`help` included), primary spellings first so
    /// that a typo is matched to the spelling the help shows when two are as near.
    static var commandNames: [String] {
        let configurations = configuration.subcommands.map { $0.configuration }
        return configurations.compactMap { $0.commandName } + ["help"] + configurations.flatMap { $0.aliases }
    }

    /// `unknown command 'update_bundel'; did you mean 'update_bundle'?` when the first
    /// argument is a word that names no command, so a typo gets a fix rather than
    /// ArgumentParser's "Unexpected argument"; nil for any other usage error.
    static func unknownCommandMessage(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !commandNames.contains(word) else { return nil }
        guard let suggestion = Spelling.nearest(to: word, among: commandNames) else {
            return "unknown command '\(Names.printable(word))'; 'zinc --help' lists the commands"
        }
        return "unknown command '\(Names.printable(word))'; did you mean '\(suggestion)'?"
    }
}
