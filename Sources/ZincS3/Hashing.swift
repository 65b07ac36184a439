import CLibCrypto
import Zinc

/// The digests Signature V4 and S3's ETags are made of, through OpenSSL's libcrypto.
enum Hashing {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        digest(bytes, EVP_sha256())
    }

    /// The MD5 of a body, which is the ETag S3 gives an object uploaded in one PUT.
    static func md5(_ bytes: [UInt8]) -> [UInt8] {
        digest(bytes, EVP_md5())
    }

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                _ = HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &output, &length)
            }
        }
        return Array(output.prefix(Int(length)))
    }

    static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

    private static func digest(_ bytes: [UInt8], _ type: OpaquePointer?) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBytes { input in
            _ = EVP_Digest(input.baseAddress, input.count, &output, &length, type, nil)
        }
        return Array(output.prefix(Int(length)))
    }
}
