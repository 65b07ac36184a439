/// MD5, for S3 only: the ETag it gives an object uploaded in one PUT, which
/// `S3Storage` compares with what it sent. Nothing in a catalog relies on it.
package enum MD5 {
    /// The 16-byte MD5 of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let running = RunningDigest(.md5)
        bytes.withUnsafeBytes { running.update($0) }
        return running.finish { Array($0) }
    }
}
