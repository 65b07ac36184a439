import ArgumentParser
import Zinc

/// Runs library work and turns a `ZincError` into a clean message and exit status 1,
/// instead of ArgumentParser's generic rendering.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ZincError {
        throw ValidationFailure(message: error.description)
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
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
