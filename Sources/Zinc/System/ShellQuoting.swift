/// Words of a command line zinc prints for its user to paste and run, as a POSIX shell
/// reads them back.
package enum ShellQuoting {
    /// `word` as is when the shell would read it unchanged, else in single quotes.
    package static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || safe.contains($0))
            }
        return plain ? word : "'" + word.map { $0 == "'" ? #"'\''"# : String($0) }.joined() + "'"
    }

    /// A command line from `words`, each quoted as needed.
    package static func command(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    /// `'zinc WORDS'`: a command zinc suggests, in quotes, that runs as shown when pasted.
    package static func hint(_ words: [String]) -> String {
        "'" + command(["zinc"] + words) + "'"
    }

    private static let safe = Set("@%+=:,./_-".unicodeScalars)
}
