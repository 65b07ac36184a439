/// The digests Zinc computes, named apart from the library computing them: a running
/// digest (`RunningDigest`) is OpenSSL's EVP API on Linux (`EVPDigest`) and CryptoKit's
/// API elsewhere (`CryptoKitDigest`).
enum DigestAlgorithm {
    /// Names objects (catalog format 1).
    case sha1
    /// What catalog signatures and S3's Signature V4 cover.
    case sha256
    /// The ETag S3 gives an object uploaded in one PUT.
    case md5
}
