import Foundation
import Testing
import Zinc

@testable import ZincS3

/// Signature Version 4 against the known answers of AWS's S3 documentation ("Examples:
/// Signature Calculations in AWS Signature Version 4", header-based authentication).
@Suite struct SignatureV4Tests {
    static let credentials = AWSCredentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", sessionToken: nil)
    static let signer = SignatureV4(credentials: credentials, region: "us-east-1")
    /// 20130524T000000Z.
    static let date = Date(timeIntervalSince1970: 1_369_353_600)
    static let host = "examplebucket.s3.amazonaws.com"

    static func signature(_ headers: [String: String]) -> String? {
        headers["authorization"]?.components(separatedBy: "Signature=").last
    }

    /// GET Object: `GET /test.txt` with `Range: bytes=0-9` and no body.
    @Test func signsTheGetObjectExample() {
        let added = Self.signer.sign(
            method: "GET", host: Self.host, encodedPath: "/test.txt", query: [],
            headers: ["range": "bytes=0-9"], payloadHash: SignatureV4.emptyPayloadHash, date: Self.date)
        #expect(
            added["authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(added["x-amz-date"] == "20130524T000000Z")
        #expect(added["x-amz-content-sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Only what the caller must add: libcurl sends Host, the caller its own headers.
        #expect(Set(added.keys) == ["authorization", "x-amz-date", "x-amz-content-sha256"])
    }

    /// PUT Object: a key with `$`, a `Date` and an `x-amz-storage-class` header, and a
    /// signed payload ("Welcome to Amazon S3.").
    @Test func signsThePutObjectExample() {
        let payloadHash = SHA256.digest(Array("Welcome to Amazon S3.".utf8)).hex
        #expect(payloadHash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let path = SignatureV4.encode("/test$file.text", keepSlash: true)
        #expect(path == "/test%24file.text")
        let added = Self.signer.sign(
            method: "PUT", host: Self.host, encodedPath: path, query: [],
            headers: ["date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY"],
            payloadHash: payloadHash, date: Self.date)
        #expect(added["authorization"]?.contains("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,") == true)
        #expect(Self.signature(added) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(added["x-amz-content-sha256"] == payloadHash)
    }

    /// GET Bucket Lifecycle: a query parameter without a value is `lifecycle=`.
    @Test func signsTheLifecycleExample() {
        let added = Self.signer.sign(
            method: "GET", host: Self.host, encodedPath: "/", query: [("lifecycle", "")], headers: [:],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.date)
        #expect(Self.signature(added) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        #expect(added["authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,") == true)
    }

    /// GET Bucket (List Objects): `?max-keys=2&prefix=J`, given here out of order; the
    /// canonical query sorts it.
    @Test func signsTheListObjectsExampleWithTheQuerySorted() {
        let added = Self.signer.sign(
            method: "GET", host: Self.host, encodedPath: "/", query: [("prefix", "J"), ("max-keys", "2")],
            headers: [:], payloadHash: SignatureV4.emptyPayloadHash, date: Self.date)
        #expect(Self.signature(added) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    /// A temporary key's session token is sent and signed.
    @Test func signsTheSessionToken() throws {
        let temporary = SignatureV4(
            credentials: AWSCredentials(
                accessKeyID: Self.credentials.accessKeyID,
                secretAccessKey: Self.credentials.secretAccessKey,
                sessionToken: "FQoGZXIvYXdzEXAMPLE"), region: "us-east-1")
        let added = temporary.sign(
            method: "GET", host: Self.host, encodedPath: "/test.txt", query: [], headers: ["range": "bytes=0-9"],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.date)
        #expect(added["x-amz-security-token"] == "FQoGZXIvYXdzEXAMPLE")
        #expect(added["authorization"]?.contains("SignedHeaders=host;range;x-amz-content-sha256;x-amz-date;x-amz-security-token,") == true)
        let signature = try #require(Self.signature(added))
        #expect(signature.count == 64 && signature != "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// A signature covers everything that names the request: a change to any of them
    /// gives another signature.
    @Test func aSignatureIsBoundToEveryPartOfTheRequest() {
        func sign(
            method: String = "GET", host: String = SignatureV4Tests.host, path: String = "/test.txt",
            query: [(String, String)] = [], headers: [String: String] = ["range": "bytes=0-9"],
            payload: String = SignatureV4.emptyPayloadHash, region: String = "us-east-1",
            secret: String = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", date: Date = SignatureV4Tests.date
        ) -> String? {
            let signer = SignatureV4(
                credentials: AWSCredentials(
                    accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: secret,
                    sessionToken: nil), region: region)
            return Self.signature(
                signer.sign(
                    method: method, host: host, encodedPath: path, query: query, headers: headers,
                    payloadHash: payload, date: date))
        }
        let variants = [
            sign(), sign(method: "HEAD"), sign(host: "otherbucket.s3.amazonaws.com"), sign(path: "/test.txt2"),
            sign(query: [("x", "1")]), sign(headers: ["range": "bytes=0-10"]), sign(payload: SignatureV4.unsignedPayload),
            sign(region: "eu-west-1"), sign(secret: "another"), sign(date: SignatureV4Tests.date.addingTimeInterval(1)),
        ]
        #expect(variants[0] == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(Set(variants.compactMap { $0 }).count == variants.count)
    }

    @Test func encodesAsS3Does() {
        #expect(SignatureV4.encode("AZaz09-._~", keepSlash: false) == "AZaz09-._~")
        #expect(SignatureV4.encode("a b+c*d%e=f&g", keepSlash: false) == "a%20b%2Bc%2Ad%25e%3Df%26g")
        #expect(SignatureV4.encode("objects/ab/cd/é.json", keepSlash: true) == "objects/ab/cd/%C3%A9.json")
        #expect(SignatureV4.encode("a/b", keepSlash: false) == "a%2Fb")
        #expect(SignatureV4.encode("", keepSlash: true) == "")
        #expect(SignatureV4.encode("\u{1F600}", keepSlash: true) == "%F0%9F%98%80")
    }

    @Test func stampsTimesInUTC() {
        #expect(SignatureV4.timestamp(Self.date) == "20130524T000000Z")
        #expect(SignatureV4.timestamp(Date(timeIntervalSince1970: 1_795_305_599.9)) == "20261121T235959Z")
        #expect(SignatureV4.timestamp(Date(timeIntervalSince1970: 0)) == "19700101T000000Z")
        #expect(SignatureV4.emptyPayloadHash == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SignatureV4.unsignedPayload == "UNSIGNED-PAYLOAD")
    }
}
