import Zinc
import ZincCurl
import ZincHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Assembly in the bucket: a multipart upload whose copied parts are `UploadPartCopy`
/// requests (`x-amz-copy-source-range`) on objects the bucket holds, and whose other
/// parts are uploaded. New bytes too few to be a part after a copied range go first into
/// a temporary object (the copied range, then those bytes), copied whole and deleted
/// afterwards; one a killed run leaves is an abandoned write (`temporaryFolder`).
///
/// Every part is checked as it lands: S3 answers each part, uploaded or copied, with the
/// MD5 of its bytes as its ETag, compared with the MD5 of the same range of the local
/// file. So the object completed is the local file, byte for byte (whose name is its
/// SHA-1), without reading anything back; a part that differs aborts the upload before
/// anything appears.
extension S3Storage: AssemblingStorage {
    package var assemblyLimits: AssemblyLimits { .s3 }

    /// Where temporary objects of assemblies go: a hidden folder, which no listing of the
    /// catalog shows.
    static let temporaryFolder = ".zinc-assembly"

    package func assemble(_ plan: AssemblyPlan, from file: PosixFile, condition: WriteCondition) throws -> AssemblyResult {
        if let refusal = copyRefusal.withLock({ $0 }) { return .refused(refusal) }
        let headers = [
            "content-type": CachePolicy.contentType(fileName: plan.path), "cache-control": CachePolicy.cacheControl(path: plan.path),
        ]
        var conditions = [String: String]()
        switch condition {
        case .always: break
        case .ifAbsent: conditions["if-none-match"] = "*"
        case .ifMatch(let version): conditions["if-match"] = version.token
        }
        let upload = try MultipartUpload.begin(plan.path, headers: headers, in: self)
        do {
            let outcomes = try parallelMap(count: plan.parts.count, workers: tuning.partWorkers) { index in
                try self.put(plan.parts[index], number: index + 1, of: upload, from: file)
            }
            var etags = [String]()
            for outcome in outcomes {
                switch outcome {
                case .landed(let etag): etags.append(etag)
                case .ended(let result):
                    try? upload.abort(in: self)
                    return result
                }
            }
            let result = try upload.complete(parts: etags, headers: conditions, in: self)
            if result == .conditionFailed { try? upload.abort(in: self) }
            return result == .written ? .written : .conditionFailed
        } catch {
            try? upload.abort(in: self)
            throw error
        }
    }

    /// What putting one part came to: its checked ETag, or the end of the assembly.
    private enum PartOutcome: Sendable {
        case landed(String)
        case ended(AssemblyResult)
    }

    private func put(_ part: AssemblyPart, number: Int, of upload: MultipartUpload, from file: PosixFile) throws -> PartOutcome {
        switch part {
        case .send(let range):
            let etag = try upload.upload(
                part: number, body: .file(descriptor: file.fd, offset: range.lowerBound, length: Int64(range.count)), in: self)
            return try checked(etag, of: upload, part: number, holding: range, of: file)
        case .copy(let copied):
            return try copy(copied.source, from: copied.sourceOffset, into: upload, part: number, holding: copied.range, of: file)
        case .joined(let copied, let sent):
            let temporary = "\(Self.temporaryFolder)/\(UUID().uuidString.lowercased())"
            let joined = try MultipartUpload.begin(temporary, headers: ["content-type": "application/octet-stream"], in: self)
            defer { try? delete(temporary) }
            do {
                var etags = [String]()
                for outcome in [
                    try copy(copied.source, from: copied.sourceOffset, into: joined, part: 1, holding: copied.range, of: file),
                    try checked(
                        try joined.upload(
                            part: 2, body: .file(descriptor: file.fd, offset: sent.lowerBound, length: Int64(sent.count)), in: self),
                        of: joined, part: 2, holding: sent, of: file),
                ] {
                    guard case .landed(let etag) = outcome else {
                        try? joined.abort(in: self)
                        return outcome
                    }
                    etags.append(etag)
                }
                guard try joined.complete(parts: etags, headers: [:], in: self) == .written else {
                    throw ZincError.remote(location: location, reason: "POST \(temporary): the temporary object was not written")
                }
            } catch {
                try? joined.abort(in: self)
                throw error
            }
            return try copy(temporary, from: 0, into: upload, part: number, holding: part.range, of: file)
        }
    }

    /// Copies `range.count` bytes of `source` from `offset` as part `number` of `upload`,
    /// where they are `range` of `file`.
    private func copy(
        _ source: String, from offset: Int64, into upload: MultipartUpload, part number: Int, holding range: Range<Int64>,
        of file: PosixFile
    ) throws -> PartOutcome {
        let copySource = "/" + address.bucket + "/" + SignatureV4.encode(address.key(source), keepSlash: true)
        let request = S3Request(
            .put, key: address.key(upload.path), operation: "PUT \(upload.path) (part \(number), copied from \(source))",
            query: [("partNumber", String(number)), ("uploadId", upload.uploadID)],
            headers: [
                "x-amz-copy-source": copySource,
                "x-amz-copy-source-range": "bytes=\(offset)-\(offset + Int64(range.count) - 1)",
            ])
        let response = try client.send(request)
        if Self.refusesCopies(response) {
            let reason = client.failure(response, of: request).description
            copyRefusal.withLock { $0 = $0 ?? reason }
            return .ended(.refused(reason))
        }
        if client.isMissingKey(response) {
            // Removed meanwhile (another writer's clean): the file goes up whole instead.
            return .ended(.mismatch("\(upload.path): part \(number): \(source) is no longer there"))
        }
        // S3 may answer 200 and still fail, with an error document as the body.
        guard response.status == 200, let result = XMLElement.parse(response.body), result.name != "Error",
            let etag = result.value("ETag")
        else { throw client.failure(response, of: request) }
        return try checked(etag, of: upload, part: number, holding: range, of: file)
    }

    /// The part's ETag if it is the MD5 of `range` of `file`, otherwise the end of the
    /// assembly: the bytes that landed are not the local ones.
    private func checked(_ etag: String, of upload: MultipartUpload, part number: Int, holding range: Range<Int64>, of file: PosixFile)
        throws -> PartOutcome
    {
        let expected = Hex.encode(try MD5.digest(of: file, range: range))
        guard etag.trimming(where: { $0 == "\"" }).lowercased() == expected else {
            return .ended(
                .mismatch(
                    "\(upload.path): part \(number) (bytes \(range.lowerBound)-\(range.upperBound - 1)) has ETag \(etag), not \(expected)"))
        }
        return .landed(etag)
    }

    /// Whether an answer to a part copy says the service does not copy parts: GCS's XML
    /// API answers `NotImplemented`; others 501, or 400 to a header they do not know.
    static func refusesCopies(_ response: S3Response) -> Bool {
        if response.status == 501 || response.status == 400 { return true }
        return XMLElement.parse(response.body)?.value("Code") == "NotImplemented"
    }

    /// Temporary objects of assemblies last modified before `cutoff`: their runs were
    /// killed before deleting them.
    func abandonedTemporaries(before cutoff: Date) throws -> [AbandonedWrite] {
        var found = [AbandonedWrite]()
        try listPages(prefix: address.key(Self.temporaryFolder + "/"), delimiter: false) { page in
            for content in page.children("Contents") {
                guard let key = content.value("Key"), let path = address.path(ofKey: key),
                    let size = content.value("Size").flatMap(Int64.init),
                    let modified = content.value("LastModified").flatMap(MultipartUpload.parseDate), modified < cutoff
                else { continue }
                found.append(AbandonedWrite(displayPath: path, size: size, token: TemporaryObject(path: path)))
            }
        }
        return found
    }
}

/// A temporary object an assembly left: an abandoned write, discarded by deleting it.
struct TemporaryObject: Hashable, Sendable {
    let path: String
}
