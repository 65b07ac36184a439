import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: JSON messages ended by NUL, commands on fd 3, answers on
/// fd 4): no port, no WebDriver, no dependency. Every wait is bounded; the browser and
/// its profile and temporary folder go away with the value.
final class HeadlessChromium {
    /// Where Debian installs it; nil when it is not installed.
    static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let pid: pid_t
    private let commands: Int32
    private let answers: Int32
    /// The browser's profile and its temporary folder (with `--disable-dev-shm-usage`,
    /// its shared memory lives in TMPDIR), removed together when it stops.
    private let scratch: String
    private var pending = [UInt8]()
    private var nextID = 0
    private var session = ""

    init() throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        // A short name: Chromium's sockets live below it, and a socket's path may not
        // exceed 107 bytes.
        var template = Array((NSTemporaryDirectory() + "zc-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else { throw Failure(description: "mkdtemp failed") }
        scratch = made
        try FileManager.default.createDirectory(atPath: scratch + "/tmp", withIntermediateDirectories: true)
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        let devNull = Glibc.open("/dev/null", O_WRONLY)
        posix_spawn_file_actions_adddup2(&actions, devNull, 1)
        posix_spawn_file_actions_adddup2(&actions, devNull, 2)
        let arguments = [
            executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--mute-audio",
            "--window-size=1280,900", "--user-data-dir=" + scratch + "/profile", "about:blank",
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch + "/tmp"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in envp { free(variable) } }
        // A process group of its own: the browser's helper processes (network service,
        // GPU) are stopped with it, not left writing into the profile.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(devNull)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard status == 0 else { throw Failure(description: "cannot start \(executable): \(status)") }
        pid = child
        commands = toBrowser[1]
        answers = fromBrowser[0]
        let target = try call("Target.createTarget", ["url": "about:blank"], inSession: false)
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session: \(attached)") }
        self.session = session
        _ = try call("Page.enable")
    }

    deinit {
        close(commands)
        close(answers)
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        // The helpers are reaped by init, not here: wait (at most 5 s) until the group is gone.
        for _ in 0..<250 where kill(-pid, 0) == 0 { usleep(20_000) }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// Loads `url` and waits until the document and its images are complete.
    func open(_ url: String) throws {
        _ = try call("Page.navigate", ["url": url])
        try waitUntilLoaded()
    }

    /// Clicks the first link whose text is `text` and waits for the page it leads to.
    func click(link text: String) throws {
        let clicked = try evaluate(
            """
            (() => { const a = [...document.querySelectorAll('a')].find(a => a.textContent.trim() === \(Self.literal(text)));
                     if (!a) return false; window.zincOldPage = true; a.click(); return true; })()
            """)
        guard clicked as? Bool == true else { throw Failure(description: "no link '\(text)' on \(try location())") }
        let deadline = Date().addingTimeInterval(15)
        // While the old document is there it still answers; during the switch nothing does.
        while (try? evaluate("window.zincOldPage === true")) as? Bool != false {
            guard Date() < deadline else { throw Failure(description: "the link '\(text)' led nowhere within 15 s") }
            usleep(20_000)
        }
        try waitUntilLoaded()
    }

    func location() throws -> String { try evaluate("location.href") as? String ?? "" }

    /// The value of a JavaScript expression (awaited when it is a promise).
    func evaluate(_ expression: String) throws -> Any? {
        let answer = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = answer["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// A PNG of the whole page.
    func screenshot(to path: String) throws {
        let size = try evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]") as? [Int] ?? [1280, 900]
        _ = try call(
            "Emulation.setDeviceMetricsOverride",
            ["width": 1280, "height": min(size[1], 4000), "deviceScaleFactor": 1, "mobile": false])
        let shot = try call("Page.captureScreenshot", ["format": "png"])
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    private func waitUntilLoaded() throws {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if try evaluate("document.readyState") as? String == "complete" {
                // Images in view, lazy ones included, finish decoding (or fail) within 5 s.
                _ = try evaluate(
                    """
                    Promise.race([Promise.allSettled([...document.images].filter(i => !i.complete || i.naturalWidth === 0)
                        .map(i => i.decode())), new Promise(r => setTimeout(r, 5000))])
                    """)
                return
            }
            usleep(20_000)
        }
        throw Failure(description: "the page did not load within 15 s")
    }

    private static func literal(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// Sends one command and returns its result, skipping events; 20 s at most.
    private func call(_ method: String, _ parameters: [String: Any] = [:], inSession: Bool = true) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if inSession { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the browser closed its pipe") }
            sent += n
        }
        let deadline = Date().addingTimeInterval(20)
        while true {
            let answer = try readMessage(until: deadline)
            guard answer["id"] as? Int == nextID else { continue }
            if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    private func readMessage(until deadline: Date) throws -> [String: Any] {
        while true {
            if let end = pending.firstIndex(of: 0) {
                let message = Array(pending[..<end])
                pending.removeSubrange(...end)
                return try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] ?? [:]
            }
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0 else { throw Failure(description: "no answer from the browser within the time limit") }
            var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, left) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(answers, &buffer, buffer.count)
            guard n > 0 else { throw Failure(description: "the browser exited") }
            pending += buffer[..<n]
        }
    }
}
