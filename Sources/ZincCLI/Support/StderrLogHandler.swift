import Logging

/// Prints library log messages as `zinc: warning: …` on stderr, keeping stdout for
/// results that scripts parse.
struct StderrLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text = event.level >= .warning ? "zinc: \(event.level): \(event.message)\n" : "zinc: \(event.message)\n"
        StandardError.write(text)
    }
}
