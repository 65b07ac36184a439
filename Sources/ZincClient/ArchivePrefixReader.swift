import Zinc

/// Takes the objects a repo is missing out of an archive, or out of any prefix of one
/// (an LMFO range download ends wherever the range did). The archive comes from a
/// server, so every member must be a regular file named exactly `<sha>` or `<sha>.gz`
/// for an object of this version, with the manifest's size: anything else (a path, a
/// link, a stranger's object) is refused as hostile before a byte of it is written.
struct ArchivePrefixReader {
    let repo: Repo
    /// Every object of the version (of the flavor), by sha.
    let expected: [String: StoredObject]
    /// Names the archive in messages.
    let origin: String
    /// The SHA-256 of each object's content, from the manifest's signature, if signed.
    var signedContent: [SHA1.Digest: SHA256.Digest]?

    /// Verifies the wanted members into objects/; returns the shas taken. Members the
    /// repo already has are skipped, and a member cut off by the end of the prefix is
    /// left for an individual fetch.
    func extract(from file: StorageReader, wanted: Set<String>) throws -> Set<String> {
        let tar = TarReader(file, path: origin)
        var taken = Set<String>()
        while let member = try next(in: tar) {
            let (object, format) = try identify(member)
            guard wanted.contains(object.sha), !taken.contains(object.sha) else { continue }
            let writer = try VerifiedObjectWriter(
                object: object, format: format,
                origin: "\(origin) member '\(member.name)'", repo: repo,
                signedSHA256: signedContent?[object.digest])
            guard try tar.readData({ try writer.write($0) }) else { break }
            try writer.commit()
            taken.insert(object.sha)
        }
        return taken
    }

    /// The next member; a header the reader cannot parse is a bad answer of the server's.
    private func next(in tar: TarReader) throws -> TarReader.Member? {
        do {
            return try tar.next()
        } catch let error as ZincError {
            guard case .corruptFile(_, let reason) = error.kind else { throw error }
            throw ClientError.badResponse(url: origin, reason: reason)
        }
    }

    private func identify(_ member: TarReader.Member) throws -> (StoredObject, ObjectFormat) {
        func hostile(_ reason: String) -> ClientError {
            .badResponse(url: origin, reason: "member '\(member.name)' at byte \(member.offset) \(reason)")
        }
        guard member.isRegularFile else { throw hostile("is not a regular file (type '\(UnicodeScalar(member.typeFlag))')") }
        let format: ObjectFormat = member.name.hasSuffix(".gz") ? .gz : .raw
        let sha = format == .gz ? String(member.name.dropLast(3)) : member.name
        guard Names.isSHA1(sha) else { throw hostile("is not named <sha> or <sha>.gz") }
        guard let object = expected[sha], let size = object.formats[format] else {
            throw hostile("is not an object of this version")
        }
        guard member.size == size else { throw hostile("is \(member.size) bytes, but the manifest records \(size)") }
        return (object, format)
    }
}
