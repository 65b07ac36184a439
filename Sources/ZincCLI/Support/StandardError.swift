import Foundation

/// Messages for people (warnings, progress, errors) go to stderr so stdout stays
/// parseable by scripts.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
