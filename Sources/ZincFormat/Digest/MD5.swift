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

extension MD5 {
    /// The MD5 of `range` of `file`, read a megabyte at a time: the ETag S3 gives a part
    /// holding those bytes.
    package static func digest(of file: PosixFile, range: Range<Int64>) throws -> [UInt8] {
        let running = RunningDigest(.md5)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = Int(min(Int64(buffer.count), range.upperBound - offset))
            let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
            if n == 0 { throw ZincError.integrity(path: file.path, reason: "it ends at byte \(offset), before \(range.upperBound)") }
            running.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            offset += Int64(n)
        }
        return running.finish { Array($0) }
    }
}
