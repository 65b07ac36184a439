import Zinc
import ZincCurl
import ZincHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Collects a file's bytes, in memory up to `S3Tuning.memoryLimit` and then in an
/// unlinked temporary file (or, when the content is one local file, only that file's
/// descriptor), and uploads it on `commit`: in one PUT, or in parts when
/// it is larger than `multipartThreshold`. Nothing is visible in the bucket before the
/// upload completes, so a writer killed at any point leaves nothing a reader sees (an
/// interrupted multipart upload is found and aborted by `clean`).
final class S3Writer: StorageWriter {
    let path: String
    private let storage: S3Storage
    private var memory = [UInt8]()
    private var spool: PosixFile?
    /// A local file that is the whole content so far, uploaded straight from its
    /// descriptor (publishing a local catalog, raw objects of an import): no copy.
    private var whole: PosixFile?
    private(set) var bytesWritten: Int64 = 0

    init(path: String, storage: S3Storage) {
        self.path = path
        self.storage = storage
    }

    deinit { discard() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if whole != nil || (spool == nil && memory.count + bytes.count > storage.tuning.memoryLimit) {
            _ = try spoolFile()
        }
        if let spool {
            try spool.write(bytes)
        } else {
            memory.append(contentsOf: bytes)
        }
        bytesWritten += Int64(bytes.count)
    }

    func append(storedFile path: String) throws {
        try Self.openStored(path, in: storage).forEachChunk { try write($0) }
    }

    /// A stored file that an archive being assembled needs: missing is an error.
    private static func openStored(_ path: String, in storage: S3Storage) throws -> StorageReader {
        guard let reader = try storage.openForReading(path) else {
            throw ZincError.remote(location: storage.location, reason: "\(path) is missing")
        }
        return reader
    }

    func append(localFile: StorageReader) throws {
        guard let file = localFile as? PosixFile else { return try appendChunks(of: localFile) }
        if bytesWritten == 0, whole == nil {
            whole = file
            bytesWritten = Int64(try file.status().st_size)
        } else {
            try copy(file)
        }
    }

    /// Fetches the stored pieces of an archive many at once, each written at its own
    /// offset of the spool file: one by one, an archive of thousands of objects would
    /// wait out thousands of round trips.
    func append(pieces: [WritePiece], workers: Int?) throws {
        let spool = try spoolFile()
        // Where each piece starts, then where the last one ends.
        let offsets = pieces.reduce(into: [bytesWritten]) { $0.append($0[$0.count - 1] + $1.size) }
        let end = offsets[pieces.count]
        let parallel = storage.properties.parallelRequests
        _ = try parallelMap(count: pieces.count, workers: workers.map { max($0, parallel) } ?? parallel) { [storage] index in
            switch pieces[index] {
            case .bytes(let bytes):
                try spool.write(bytes, at: offsets[index])
            case .storedFile(let path, let size):
                var written: Int64 = 0
                try Self.openStored(path, in: storage).forEachChunk { chunk in
                    guard written + Int64(chunk.count) <= size else {
                        throw WritePieceMismatch(path: path, expected: size, actual: written + Int64(chunk.count))
                    }
                    try spool.write(Array(chunk), at: offsets[index] + written)
                    written += Int64(chunk.count)
                }
                guard written == size else { throw WritePieceMismatch(path: path, expected: size, actual: written) }
            }
        }
        bytesWritten = end
        // Later writes append at the file's offset, which positional writes left behind.
        guard lseek(spool.fd, off_t(end), SEEK_SET) == off_t(end) else {
            throw ZincError.io(path: spool.path, operation: "seek", errno: errno)
        }
    }

    /// The spool file, created now (holding what was written so far) if need be.
    private func spoolFile() throws -> PosixFile {
        if let file = whole {
            whole = nil
            bytesWritten = 0
            try copy(file)
        }
        if let spool { return spool }
        let file = try Self.temporaryFile()
        try file.write(memory)
        memory = []
        spool = file
        return file
    }

    private func copy(_ file: PosixFile) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let n = try file.read(into: buffer, at: offset)
            if n == 0 { return }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            offset += Int64(n)
        }
    }

    func commit(_ condition: WriteCondition) throws -> CommitResult {
        var headers = ["content-type": CachePolicy.contentType(fileName: path), "cache-control": CachePolicy.cacheControl(path: path)]
        var conditions = [String: String]()
        switch condition {
        case .always: break
        case .ifAbsent: conditions["if-none-match"] = "*"
        case .ifMatch(let version): conditions["if-match"] = version.token
        }
        defer { discard() }
        if let file = whole ?? spool, bytesWritten > storage.tuning.multipartThreshold {
            return try uploadInParts(from: file, headers: headers, conditions: conditions)
        }
        headers.merge(conditions) { $1 }
        let body: RequestBody = (whole ?? spool).map { .file(descriptor: $0.fd, offset: 0, length: bytesWritten) } ?? .bytes(memory)
        // An object's name is its content: if a lost attempt stored it, the next finds it
        // there (412), which its writer takes as the object stored, so it may be resent.
        let resendable = conditions.isEmpty || (condition == .ifAbsent && path.hasPrefix("objects/"))
        let request = S3Request(
            .put, key: storage.address.key(path), operation: "PUT \(path)", headers: headers, body: body,
            retry: resendable ? .always : .whenRefused)
        let response = try storage.client.send(request)
        switch response.status {
        case 200:
            return .written
        case 409, 412:
            // 409: a concurrent conditional write to the same key won.
            return .conditionFailed
        case 404 where condition != .always && condition != .ifAbsent:
            // If-Match on a key that is gone.
            return .conditionFailed
        default:
            throw storage.client.failure(response, of: request)
        }
    }

    func discard() {
        spool = nil  // closing the unlinked file frees its space
        whole = nil
        memory = []
    }

    private func uploadInParts(from file: PosixFile, headers: [String: String], conditions: [String: String]) throws -> CommitResult {
        let tuning = storage.tuning
        // S3 allows 10,000 parts.
        let partSize = max(tuning.partSize, (bytesWritten + 9_999) / 10_000)
        let count = Int((bytesWritten + partSize - 1) / partSize)
        let upload = try MultipartUpload.begin(path, headers: headers, in: storage)
        do {
            let etags = try parallelMap(count: count, workers: tuning.partWorkers) { [storage, bytesWritten] index in
                let offset = Int64(index) * partSize
                let body = RequestBody.file(descriptor: file.fd, offset: offset, length: min(partSize, bytesWritten - offset))
                return try upload.upload(part: index + 1, body: body, in: storage)
            }
            let result = try upload.complete(parts: etags, headers: conditions, in: storage)
            if result == .conditionFailed { try? upload.abort(in: storage) }
            return result
        } catch {
            try? upload.abort(in: storage)
            throw error
        }
    }

    /// The content written, local (the file given whole, or the spool), as a file the
    /// bucket assembles the object from.
    fileprivate func contentFile() throws -> PosixFile {
        try whole ?? spoolFile()
    }

    /// A file in the temporary folder, unlinked at once: the kernel frees it when the
    /// writer closes it, even if the process is killed.
    private static func temporaryFile() throws -> PosixFile {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/zinc-upload-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard fd >= 0 else { throw ZincError.io(path: name, operation: "create a temporary file", errno: errno) }
        unlink(name)
        return PosixFile(fd: fd, path: name)
    }
}

extension S3Writer: AssemblingWriter {
    var assemblyLimits: AssemblyLimits { storage.assemblyLimits }

    func assemble(_ plan: AssemblyPlan, condition: WriteCondition) throws -> AssemblyResult {
        precondition(plan.path == path && plan.size == bytesWritten, "a plan for \(plan.path) assembling \(path)")
        return try storage.assemble(plan, from: try contentFile(), condition: condition)
    }
}
