/// `--version -1` (or `-v -1`): ArgumentParser takes `-1` for an option and reports the
/// value missing. Joined to its option (`--version=-1`) it reaches `VersionSpec`, which
/// says what a version is.
enum NegativeVersionValue {
    static func joined(_ arguments: [String]) -> [String] {
        var result = [String]()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if ["--version", "--versions", "-v"].contains(argument), index + 1 < arguments.endIndex,
                isNegativeNumber(arguments[index + 1])
            {
                result.append((argument == "-v" ? "--version" : argument) + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }

    private static func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.first == "-" && word.dropFirst().allSatisfy(\.isASCII) && Int(word) != nil
    }
}
