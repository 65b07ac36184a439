import Foundation
import Testing
import ZincTestSupport

/// Every command line the README and the guides in `docs/` show is run, in order, as a
/// reader would type it, and must succeed. The convention, for whoever writes the docs:
///
/// - A fenced block tagged `sh` holds commands. Every line is run by bash, but blank
///   lines and lines starting with `#`; a line ending in `\` goes on with the next.
/// - A block tagged `console` is a transcript: its lines starting with `$ ` are run the
///   same way, the lines after each one are its sample output (not compared).
/// - A command ending with `# exits N` must exit with status N (a failing example);
///   every other command must exit 0.
/// - A command ending with `&` (`zinc serve ... &`) runs in the background until the
///   document's commands are done; its `--port N` becomes a free port, and
///   `http://127.0.0.1:N` and `http://localhost:N` in later commands its address.
/// - `<!-- doc-test: URL serves CATALOG -->` (invisible on GitHub) makes an example
///   host's URL, such as `https://cdn.example.com/french/`, stand for `zinc serve
///   --catalog CATALOG` on loopback, started when a command first names the URL.
/// - `<!-- doc-test: file PATH -->` writes the next fenced block (a flavorspec shown as
///   `json`) to PATH, at that point of the document.
/// - `export` and `unset` lines hold for the rest of the document.
/// - Blocks tagged otherwise (`text`, `json`, `swift`, `sh notest` for `make` and
///   `apt-get` lines) are not run.
///
/// Each document runs in a scratch folder of its own, which is also `$HOME`, holding a
/// copy of `Examples/BasicAdjectives`; `zinc` is the built binary; `file:///X` is
/// `X` under the scratch folder; `s3://BUCKET` is a fresh bucket of moto's S3 server
/// (the rest of a document is skipped, with a message, when `moto_server` is missing).
@Suite struct DocumentedCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// README.md and every guide in docs/.
    static var documents: [String] {
        let guides = (try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []
        return ["README.md"] + guides.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test(arguments: documents) func everyCommandLineRuns(_ document: String) throws {
        let text = try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8)
        let parsed = DocumentedCommands.parse(text)
        #expect(parsed.unknownDirectives.isEmpty, "\(document): \(parsed.unknownDirectives)")
        try DocumentRun(document: document, commands: parsed.commands, served: parsed.served).run()
    }

    @Test func theGuidesAndTheReadmeShowCommands() throws {
        for document in ["README.md", "docs/PUBLISHING.md", "docs/CLIENT.md", "docs/SIGNING.md", "docs/MAINTENANCE.md"] {
            let text = try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8)
            #expect(DocumentedCommands.parse(text).commands.count >= 5, "\(document)")
        }
    }

    @Test func readsTheConvention() {
        let text = """
            Intro.
            <!-- doc-test: https://cdn.example.com/a/ serves cat -->

            ```sh
            # a comment
            zinc create_catalog --id x \\
                --dest cat
            zinc verify --catalog cat   # exits 2
            ```

            ```sh notest
            make demo
            ```

            - A list:

              ```console
              $ zinc list --catalog cat
              x [1]
              $ zinc serve --catalog cat --port 8080 &
              ```

            ```text
            zinc list --catalog CAT
            ```

            <!-- doc-test: file spec.json -->
            ```json
            {"phone": ["+ *"]}
            ```
            """
        let parsed = DocumentedCommands.parse(text)
        #expect(parsed.served == ["https://cdn.example.com/a/": "cat"])
        #expect(
            parsed.commands.map(\.text) == [
                "zinc create_catalog --id x \\\n    --dest cat", "zinc verify --catalog cat   # exits 2",
                "zinc list --catalog cat", "zinc serve --catalog cat --port 8080",
                "cat > 'spec.json' <<'DOC_TEST_EOF'\n{\"phone\": [\"+ *\"]}\nDOC_TEST_EOF",
            ])
        #expect(parsed.commands.map(\.expectedStatus) == [0, 2, 0, 0, 0])
        #expect(parsed.commands.map(\.background) == [false, false, false, true, false])
        #expect(parsed.commands.map(\.line) == [6, 8, 18, 20, 27])
    }
}

/// The commands of one document, in order.
struct DocumentedCommands {
    struct Command: Equatable {
        /// The command as bash runs it (continuation lines included, `&` dropped).
        var text: String
        /// The line of the document it starts on, from 1.
        var line: Int
        var expectedStatus: Int32
        var background: Bool
    }

    var commands: [Command] = []
    /// Example URLs and the local catalog each stands for.
    var served: [String: String] = [:]
    /// `doc-test` comments this test does not understand, with their lines.
    var unknownDirectives: [String] = []

    static func parse(_ text: String) -> DocumentedCommands {
        var result = DocumentedCommands()
        var fence: (indent: Int, kind: String)?
        var pending: (text: String, line: Int)?
        var file: (path: String, line: Int, content: [String])?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, raw) in lines.enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if fence == nil {
                    let words = trimmed.dropFirst(3).split(separator: " ").map(String.init)
                    let kind = words.contains("notest") ? "notest" : words.first ?? ""
                    fence = (raw.prefix { $0 == " " }.count, kind)
                } else {
                    fence = nil
                    pending = nil
                    if let written = file, !written.content.isEmpty {
                        let text = "cat > '\(written.path)' <<'DOC_TEST_EOF'\n" + written.content.joined(separator: "\n") + "\nDOC_TEST_EOF"
                        result.commands.append(Command(text: text, line: written.line, expectedStatus: 0, background: false))
                        file = nil
                    }
                }
                continue
            }
            if let open = fence, var written = file {
                written.content.append(String(raw.dropFirst(min(open.indent, raw.prefix { $0 == " " }.count))))
                file = written
                continue
            }
            guard let open = fence else {
                if trimmed.hasPrefix("<!-- doc-test:"), trimmed.hasSuffix("-->") {
                    let words = trimmed.dropFirst("<!-- doc-test:".count).dropLast(3).split(separator: " ").map(String.init)
                    if words.count == 3, words[1] == "serves" {
                        result.served[words[0]] = words[2]
                    } else if words.count == 2, words[0] == "file" {
                        file = (words[1], index + 1, [])
                    } else {
                        result.unknownDirectives.append("line \(index + 1): \(trimmed)")
                    }
                }
                continue
            }
            guard open.kind == "sh" || open.kind == "console" else { continue }
            let content = String(raw.dropFirst(min(open.indent, raw.prefix { $0 == " " }.count)))
            var piece: String
            if let started = pending {
                piece = started.text + "\n" + content
            } else if open.kind == "console" {
                guard content.hasPrefix("$ ") else { continue }
                piece = String(content.dropFirst(2))
            } else {
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                piece = content
            }
            if piece.hasSuffix("\\") {
                pending = (piece, pending?.line ?? index + 1)
                continue
            }
            result.commands.append(command(piece, line: pending?.line ?? index + 1))
            pending = nil
        }
        return result
    }

    /// A command's expected status (`# exits N`) and whether it ends with `&`.
    static func command(_ text: String, line: Int) -> Command {
        var status: Int32 = 0
        var body = text
        if let comment = text.range(of: " # ", options: .backwards) ?? text.range(of: "\t# ", options: .backwards) {
            let words = text[comment.upperBound...].split(separator: " ")
            if words.count >= 2, words[0] == "exits", let number = Int32(words[1]) { status = number }
            body = String(text[..<comment.lowerBound])
        }
        body = body.trimmingCharacters(in: .whitespaces)
        if body.hasSuffix("&"), !body.hasSuffix("&&") {
            return Command(
                text: String(body.dropLast()).trimmingCharacters(in: .whitespaces), line: line, expectedStatus: status, background: true)
        }
        return Command(text: text, line: line, expectedStatus: status, background: false)
    }
}

/// One document's commands run in a scratch folder.
final class DocumentRun {
    let document: String
    let commands: [DocumentedCommands.Command]
    let served: [String: String]
    let scratch: TemporaryDirectory
    /// Outside the scratch folder: `zinc` for PATH, and each command's output.
    let tools: TemporaryDirectory
    var replacements: [(String, String)] = []
    var background: [Any] = []
    var buckets: [String: String] = [:]
    var moto: MotoServer?
    var exports: [String] = []

    init(document: String, commands: [DocumentedCommands.Command], served: [String: String]) throws {
        self.document = document
        self.commands = commands
        self.served = served
        scratch = try TemporaryDirectory()
        tools = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tools.at("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tools.at("bin/zinc"), withDestinationPath: ZincBinary.path)
        try FileManager.default.createDirectory(atPath: scratch.at("Examples"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: DocumentedCommandsTests.root + "/Examples/BasicAdjectives", toPath: scratch.at("Examples/BasicAdjectives"))
        replacements.append(("file:///", "file://" + scratch.path + "/"))
    }

    deinit {
        // Servers first, before the folders they serve go.
        background.removeAll()
    }

    func run() throws {
        for command in commands {
            guard var text = try adapted(command) else { return }
            if command.background {
                try startInBackground(text, command)
                continue
            }
            if text.hasPrefix("export ") || text.hasPrefix("unset ") {
                exports.append(text)
                text = "true"
            }
            let result = try shell(text)
            let shown = "\(document):\(command.line): \(command.text)"
            if ProcessInfo.processInfo.environment["ZINC_DOC_TEST_VERBOSE"] != nil {
                print("\(shown)\n  ran: \(text)\n  exit \(result.status)\n\(result.output)")
            }
            #expect(
                result.status == command.expectedStatus,
                "\(shown)\nexited \(result.status), expected \(command.expectedStatus)\n\(result.output.suffix(3000))")
            if result.status != command.expectedStatus { return }  // the commands after it build on it
        }
    }

    /// The command with the environment's addresses in place of the document's; nil when
    /// it needs an S3 server this machine lacks.
    func adapted(_ command: DocumentedCommands.Command) throws -> String? {
        var text = command.text
        for (url, catalog) in served.sorted(by: { $0.key.count > $1.key.count })
        where text.contains(url) && !replacements.contains(where: { $0.0 == url }) {
            let server = try ServeProcess(catalog: catalog, in: scratch.path)
            background.append(server)
            replacements.append((url, server.url))
            if url.hasSuffix("/") { replacements.append((String(url.dropLast()), String(server.url.dropLast()))) }
        }
        if text.contains("s3://") {
            if moto == nil {
                let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
                guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/moto_server") })
                else {
                    print("\(document):\(command.line): skipped from here on: moto_server is not installed (pip install \"moto[server]\")")
                    return nil
                }
                moto = try MotoServer.shared()
            }
            for match in text.matches(of: /s3:\/\/([a-z0-9][a-z0-9.-]*)/) where buckets[String(match.output.1)] == nil {
                buckets[String(match.output.1)] = try moto!.makeBucket()
            }
            text = text.replacing(/s3:\/\/([a-z0-9][a-z0-9.-]*)/) { "s3://" + (buckets[String($0.output.1)] ?? "") }
        }
        for (from, to) in replacements { text = text.replacingOccurrences(of: from, with: to) }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// `zinc serve ... &`: started with a free port, whose address replaces the one the
    /// document gave it.
    func startInBackground(_ text: String, _ command: DocumentedCommands.Command) throws {
        var words = text.split(separator: " ").map(String.init)
        guard words.first == "zinc", words.dropFirst().first == "serve" else {
            Issue.record("\(document):\(command.line): only 'zinc serve ... &' may run in the background: \(command.text)")
            return
        }
        var port: String?
        if let flag = words.firstIndex(of: "--port"), flag + 1 < words.count {
            port = words[flag + 1]
            words[flag + 1] = "0"
        } else {
            words += ["--port", "0"]
        }
        let server = try ServeProcess(arguments: Array(words.dropFirst()), in: scratch.path, environment: environment)
        background.append(server)
        let address = String(server.url.dropLast())
        for host in ["127.0.0.1", "localhost"] {
            replacements.append(("http://\(host):\(port ?? "8080")", address))
        }
    }

    var environment: [String: String] {
        var environment = ZincBinary.environment(in: scratch.path)
        environment["HOME"] = scratch.path
        environment["PATH"] = tools.at("bin") + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        for (name, value) in moto?.environment ?? [:] { environment[name] = value }
        return environment
    }

    /// Runs one command line with bash in the scratch folder, after the document's
    /// `export` and `unset` lines so far.
    func shell(_ text: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["300", "/bin/bash", "-c", (exports + [text]).joined(separator: "\n")]
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
        process.environment = environment
        let log = tools.at("output")
        _ = FileManager.default.createFile(atPath: log, contents: nil)  // a failure shows in the open below
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
}
