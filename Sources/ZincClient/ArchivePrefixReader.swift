import Zinc

/// Takes the objects a repo is missing out of an archive, or out of any prefix of one
/// (an LMFO range download ends wherever the range did). The archive comes from a
/// server, so every member must be a regular file named exactly `<sha>` or `<sha>.gz`
/// for an object of this version, and a member taken must have the manifest's size:
/// anything else (a path, a link, a stranger's object) is refused as hostile before a
/// byte of it is written. Only the objects wanted are held whole; the version's others
/// are looked up in its packed list.
struct ArchivePrefixReader {
    let repo: Repo
    /// The objects a sync may take from the archive, by digest: those it lacks.
    let wanted: [SHA1.Digest: StoredObject]
    /// Every object of the version (of the flavor): the archive's members.
    let members: VersionObjects
    /// Names the archive in messages.
    let origin: String
    /// The SHA-256 of each object's content, from the manifest's signature, if signed.
    var signedContent: [SHA1.Digest: SHA256.Digest]?

    /// Verifies the members of `taking` (some of `wanted`) into objects/; returns the
    /// digests taken. Other members are skipped, and a member cut off by the end of the
    /// prefix is left for an individual fetch.
    func extract(from file: StorageReader, taking: Set<SHA1.Digest>) throws -> Set<SHA1.Digest> {
        let tar = TarReader(file, path: origin)
        var taken = Set<SHA1.Digest>()
        while let member = try next(in: tar) {
            guard let (object, format) = try identify(member), taking.contains(object.digest), !taken.contains(object.digest) else {
                continue
            }
            let memberOrigin = "\(origin) member '\(member.name)'"
            let writer = try VerifiedObjectWriter(
                object: object, format: format, origin: memberOrigin, repo: repo,
                signedSHA256: ObjectVerifier.signedSHA256(of: object, in: signedContent, origin: memberOrigin))
            guard try tar.readData({ try writer.write($0) }) else { break }
            try writer.commit()
            taken.insert(object.digest)
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

    /// The object and format of a member of the version, nil for one not wanted.
    private func identify(_ member: TarReader.Member) throws -> (StoredObject, ObjectFormat)? {
        func hostile(_ reason: String) -> ClientError {
            .badResponse(url: origin, reason: "member '\(member.name)' at byte \(member.offset) \(reason)")
        }
        guard member.isRegularFile else { throw hostile("is not a regular file (type '\(UnicodeScalar(member.typeFlag))')") }
        let format: ObjectFormat = member.name.hasSuffix(".gz") ? .gz : .raw
        let sha = format == .gz ? String(member.name.dropLast(3)) : member.name
        guard Names.isSHA1(sha), let digest = SHA1.Digest(hex: sha) else { throw hostile("is not named <sha> or <sha>.gz") }
        guard members.contains(digest) else { throw hostile("is not an object of this version") }
        guard let object = wanted[digest] else { return nil }
        guard let size = object.formats[format] else { throw hostile("is not an object of this version") }
        guard member.size == size else { throw hostile("is \(member.size) bytes, but the manifest records \(size)") }
        return (object, format)
    }
}
