extension StringProtocol {
    /// The text without the characters at its ends for which `isTrimmed` holds: header
    /// fields and configuration lines as read. Foundation's `trimmingCharacters(in:)`
    /// would link ICU's tables into `zinc`.
    package func trimming(where isTrimmed: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }

    /// The text without white space (Unicode's: spaces, tabs, line breaks) at its ends.
    package func trimmingWhitespace() -> SubSequence {
        trimming(where: \.isWhitespace)
    }
}
