import Zinc
import ZincCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An upload in parts that was begun and not completed. An abandoned one is the token
/// of an `AbandonedWrite`, which `clean` shows as `<path>?uploadId=<id>` (catalog paths
/// never hold `?`), sized by the sum of its parts and discarded by aborting it.
struct MultipartUpload: Hashable, Sendable {
    let path: String
    let uploadID: String
    var initiated = Date.distantPast

    /// The name `clean` shows it by: its object's path, told apart from the object and
    /// from other uploads of that path.
    var displayPath: String { path + "?uploadId=" + uploadID }

    init(path: String, uploadID: String) {
        self.path = path
        self.uploadID = uploadID
    }

    /// Starts an upload of `path` with its headers (type, caching).
    static func begin(_ path: String, headers: [String: String], in storage: S3Storage) throws -> MultipartUpload {
        let request = S3Request(
            .post, key: storage.address.key(path), operation: "POST \(path) (start of a multipart upload)",
            query: [("uploads", "")], headers: headers)
        let response = try storage.client.send(request)
        guard response.status == 200 else { throw storage.client.failure(response, of: request) }
        guard let result = XMLElement.parse(response.body), let id = result.value("UploadId"), !id.isEmpty else {
            throw ZincError.remote(location: storage.location, reason: "\(request.operation): the answer names no upload id")
        }
        return MultipartUpload(path: path, uploadID: id)
    }

    /// Uploads one part (numbered from 1) and returns its ETag.
    func upload(part number: Int, body: RequestBody, in storage: S3Storage) throws -> String {
        let request = S3Request(
            .put, key: storage.address.key(path), operation: "PUT \(path) (part \(number))",
            query: [("partNumber", String(number)), ("uploadId", uploadID)], body: body)
        let response = try storage.client.send(request)
        guard response.status == 200, let etag = response.head["etag"] else { throw storage.client.failure(response, of: request) }
        return etag
    }

    /// Completes the upload; the object appears whole now, if `condition` holds.
    func complete(parts etags: [String], headers: [String: String], in storage: S3Storage) throws -> CommitResult {
        var xml = "<CompleteMultipartUpload>"
        for (index, etag) in etags.enumerated() {
            xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(Self.escape(etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        // Typed as XML: libcurl would label a POST body a form, which servers may parse as one.
        let request = S3Request(
            .post, key: storage.address.key(path), operation: "POST \(path) (completion of a multipart upload)",
            query: [("uploadId", uploadID)], headers: headers.merging(["content-type": "application/xml"]) { $1 },
            body: .bytes(Array(xml.utf8)),
            retry: headers.isEmpty ? .always : .whenRefused)
        let response = try storage.client.send(request)
        switch response.status {
        case 200:
            // S3 may answer 200 and still fail, with an error document as the body.
            guard let result = XMLElement.parse(response.body), result.name != "Error" else {
                throw storage.client.failure(response, of: request)
            }
            return .written
        case 409, 412:
            return .conditionFailed
        default:
            throw storage.client.failure(response, of: request)
        }
    }

    /// Discards the parts; an upload already gone is not an error.
    func abort(in storage: S3Storage) throws {
        let request = S3Request(
            .delete, key: storage.address.key(path), operation: "DELETE \(path) (abort of a multipart upload)",
            query: [("uploadId", uploadID)])
        let response = try storage.client.send(request)
        guard [200, 204, 404].contains(response.status) else { throw storage.client.failure(response, of: request) }
    }

    /// The bytes its parts hold; nil once it is gone.
    func size(in storage: S3Storage) throws -> Int64? {
        let request = S3Request(.get, key: storage.address.key(path), operation: "LIST parts of \(path)", query: [("uploadId", uploadID)])
        let response = try storage.client.send(request)
        if response.status == 404 { return nil }
        guard response.status == 200, let result = XMLElement.parse(response.body) else {
            throw storage.client.failure(response, of: request)
        }
        return result.children("Part").reduce(0) { total, part in total + max(0, part.value("Size").flatMap(Int64.init) ?? 0) }
    }

    /// Every unfinished upload under the catalog's prefix.
    static func all(in storage: S3Storage) throws -> [MultipartUpload] {
        var uploads = [MultipartUpload]()
        var markers: (key: String, id: String)?
        let prefix = storage.address.key("")
        repeat {
            var query = [("uploads", ""), ("prefix", prefix)]
            if let markers { query += [("key-marker", markers.key), ("upload-id-marker", markers.id)] }
            let request = S3Request(.get, key: nil, operation: "LIST multipart uploads", query: query)
            let response = try storage.client.send(request)
            guard response.status == 200, let result = XMLElement.parse(response.body) else {
                throw storage.client.failure(response, of: request)
            }
            for upload in result.children("Upload") {
                guard let key = upload.value("Key"), let path = storage.address.path(ofKey: key), let id = upload.value("UploadId") else {
                    continue
                }
                var found = MultipartUpload(path: path, uploadID: id)
                found.initiated = upload.value("Initiated").flatMap(Self.parseDate) ?? .distantPast
                uploads.append(found)
            }
            if result.value("IsTruncated") == "true", let key = result.value("NextKeyMarker"), let id = result.value("NextUploadIdMarker") {
                markers = (key, id)
            } else {
                markers = nil
            }
        } while markers != nil
        return uploads
    }

    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: .iso8601)
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
