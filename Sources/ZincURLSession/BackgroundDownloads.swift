// A background session exists on Apple systems only: FoundationNetworking has none.
#if canImport(Darwin) && !canImport(FoundationNetworking)
import Foundation
import Synchronization
import ZincClient

/// Performs a `DownloadPlan` with a background `URLSession`: the system makes the
/// downloads while the app is suspended, or after it was terminated, and relaunches it
/// in the background when they end (docs/CLIENT.md, "Downloads the system finishes").
/// Each finished file is moved to its request's destination in the repo, where
/// `Repo.applyDownloads(_:options:progress:)` verifies it: nothing here is trusted. A
/// download that fails with resume data is resumed from it; one that fails otherwise is
/// left to the apply, which fetches what is missing.
///
/// Made again with the same identifier after a relaunch, it re-attaches to the session's
/// tasks, whose events the system then delivers.
public final class BackgroundDownloads: NSObject, URLSessionDownloadDelegate, Sendable {
    private let repo: URL
    private let session = Mutex<URLSession?>(nil)
    private let eventsDelivered = Mutex<(@MainActor () -> Void)?>(nil)

    /// - Parameters:
    ///   - identifier: the background session's, the same at every launch.
    ///   - repo: the repo's folder, which the requests' destinations are relative to.
    public init(identifier: String, repo: URL) {
        self.repo = repo
        super.init()
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.sessionSendsLaunchEvents = true
        configuration.urlCache = nil
        // The session keeps a strong reference to its delegate until invalidated: one
        // object per identifier for the life of the process.
        session.withLock { $0 = URLSession(configuration: configuration, delegate: self, delegateQueue: nil) }
    }

    private var urlSession: URLSession { session.withLock { $0! } }

    /// Starts each request of `plan` that no task of the session is making already and
    /// whose destination is not complete, from the resume data a failed attempt left
    /// when there is some. After a relaunch, making this object again re-attaches to the
    /// tasks; calling `start` again restarts only what was lost.
    public func start(_ plan: DownloadPlan) async {
        let running = Set(await urlSession.allTasks.compactMap(\.taskDescription))
        // The same text for the same request at every launch: what a running task is known by.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for request in plan.requests {
            guard let description = try? String(decoding: encoder.encode(request), as: UTF8.self), !running.contains(description)
            else { continue }
            if let destination = destinationURL(of: request),
                let size = try? destination.resourceValues(forKeys: [.fileSizeKey]).fileSize, Int64(size) >= request.size
            {
                continue
            }
            let task: URLSessionDownloadTask
            if let resumeFile = resumeURL(of: request), let resumeData = try? Data(contentsOf: resumeFile) {
                try? FileManager.default.removeItem(at: resumeFile)
                task = urlSession.downloadTask(withResumeData: resumeData)
            } else {
                var urlRequest = URLRequest(url: request.url)
                if let range = request.range {
                    urlRequest.setValue("bytes=\(range.lowerBound)-\(range.upperBound)", forHTTPHeaderField: "Range")
                }
                task = urlSession.downloadTask(with: urlRequest)
            }
            task.taskDescription = description
            task.countOfBytesClientExpectsToReceive = request.size - request.offset
            task.resume()
        }
    }

    /// The downloads not yet finished: the plan is applied once there are none.
    public func pending() async -> Int {
        await urlSession.allTasks.count
    }

    /// Hands on the completion handler of the app delegate's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, called on
    /// the main queue once the session has delivered its events.
    public func whenEventsDelivered(_ completionHandler: @escaping @MainActor () -> Void) {
        eventsDelivered.withLock { $0 = completionHandler }
    }

    public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let handler = eventsDelivered.withLock({ $0.take() }) else { return }
        DispatchQueue.main.async { handler() }
    }

    /// The temporary file goes when this returns: its bytes are placed now.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        guard let request = Self.request(of: downloadTask), let destination = destinationURL(of: request),
            let status = (downloadTask.response as? HTTPURLResponse)?.statusCode
        else { return }
        // 206 brings the range, to write at the request's offset, after the bytes the file
        // holds; 200 the whole file. Any other answer is the apply's to fetch again.
        do {
            switch status {
            case 206 where request.offset > 0:
                try Self.append(location, to: destination, at: request.offset)
            case 200, 206:
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.moveItem(at: location, to: destination)
            default:
                return
            }
        } catch {
            // What was not placed costs the apply its download.
            try? FileManager.default.removeItem(at: destination)
        }
    }

    /// A download cut with resume data continues from it at once; the system makes it when it can.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let error = error as? URLError, let resumeData = error.downloadTaskResumeData else { return }
        let resumed = session.downloadTask(withResumeData: resumeData)
        resumed.taskDescription = task.taskDescription
        resumed.resume()
        // Kept too, for a `start` after the app was terminated and the session's tasks lost.
        if let resumeFile = Self.request(of: task).flatMap(resumeURL) { try? resumeData.write(to: resumeFile, options: .atomic) }
    }

    private static func request(of task: URLSessionTask) -> DownloadPlan.Request? {
        task.taskDescription.flatMap { try? JSONDecoder().decode(DownloadPlan.Request.self, from: Data($0.utf8)) }
    }

    /// The request's destination, when it is a file of the repo's tmp/ (the plan's file
    /// may have been changed by anyone).
    private func destinationURL(of request: DownloadPlan.Request) -> URL? {
        let parts = request.destination.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "tmp", !parts[1].isEmpty, parts[1] != ".", parts[1] != ".." else { return nil }
        return repo.appending(path: request.destination)
    }

    /// Beside the destination: what the apply's collection of tmp/ removes with it.
    private func resumeURL(of request: DownloadPlan.Request) -> URL? {
        destinationURL(of: request)?.appendingPathExtension("resume")
    }

    /// Writes `file`'s bytes at `offset` of `destination`, a megabyte at a time.
    private static func append(_ file: URL, to destination: URL, at offset: Int64) throws {
        let input = try FileHandle(forReadingFrom: file)
        defer { try? input.close() }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        try output.truncate(atOffset: UInt64(offset))
        try output.seek(toOffset: UInt64(offset))
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
    }
}
#endif
