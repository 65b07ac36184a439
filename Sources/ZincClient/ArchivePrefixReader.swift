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
    /// The objects a sync may take from the archive, those it lacks: sorted by digest,
    /// each once, and searched by halving (a table keyed by digest took 60 bytes an
    /// object more, 16 MB for a first sync of 100,000 files).
    let wanted: [StoredObject]
    /// Every object of the version (of the flavor): the archive's members.
    let members: VersionObjects
    /// Names the archive in messages.
    let origin: String
    /// The SHA-256 of each object's content, from the manifest's signature, if signed.
    let signedContent: [SHA1.Digest: SHA256.Digest]?

    init(
        repo: Repo, wanted: [StoredObject], members: VersionObjects, origin: String, signedContent: [SHA1.Digest: SHA256.Digest]?
    ) {
        self.repo = repo
        // A plan's missing objects come sorted and distinct, and are then shared, not copied.
        self.wanted = StoredObject.distinctSorted(wanted)
        self.members = members
        self.origin = origin
        self.signedContent = signedContent
    }

    /// Every object of `wanted`.
    var everything: ObjectSelection { ObjectSelection(count: wanted.count) { _ in true } }

    /// The objects of `wanted` that `taken` does not select, in digest order.
    func left(after taken: ObjectSelection) -> [StoredObject] {
        wanted.indices.filter { !taken.contains($0) }.map { wanted[$0] }
    }

    /// Verifies the members `taking` selects of `wanted` into objects/; returns those
    /// taken. Other members are skipped, and a member cut off by the end of the prefix is
    /// left for an individual fetch.
    func extract(from file: StorageReader, taking: ObjectSelection) throws -> ObjectSelection {
        let tar = TarReader(file, path: origin)
        var taken = ObjectSelection(count: wanted.count) { _ in false }
        while let member = try next(in: tar) {
            guard let (index, format) = try identify(member), taking.contains(index), !taken.contains(index) else { continue }
            let object = wanted[index]
            let memberOrigin = "\(origin) member '\(member.name)'"
            let writer = try VerifiedObjectWriter(
                object: object, format: format, origin: memberOrigin, repo: repo,
                signedSHA256: ObjectVerifier.signedSHA256(of: object, in: signedContent, origin: memberOrigin))
            guard try tar.readData({ try writer.write($0) }) else { break }
            try writer.commit()
            taken.insert(index)
        }
        return taken
    }

    /// The next member; a header the reader cannot parse is a bad answer of the server's.
    private func next(in tar: TarReader) throws -> TarReader.Member? {
        do {
            return try tar.next()
        } catch let error as ZincError {
            guard error.code == .corruptFile, let reason = error.reason else { throw error }
            throw ClientError.badResponse(url: origin, reason: reason)
        }
    }

    /// The index in `wanted` and the format of a member of the version, nil for one not wanted.
    private func identify(_ member: TarReader.Member) throws -> (Int, ObjectFormat)? {
        func hostile(_ reason: String) -> ClientError {
            .badResponse(url: origin, reason: "member '\(member.name)' at byte \(member.offset) \(reason)")
        }
        guard member.isRegularFile else { throw hostile("is not a regular file (type '\(UnicodeScalar(member.typeFlag))')") }
        let format: ObjectFormat = member.name.hasSuffix(".gz") ? .gz : .raw
        let sha = format == .gz ? String(member.name.dropLast(3)) : member.name
        guard Names.isSHA1(sha), let digest = SHA1.Digest(hex: sha) else { throw hostile("is not named <sha> or <sha>.gz") }
        guard members.contains(digest) else { throw hostile("is not an object of this version") }
        let index = wanted.partitionPoint { $0.digest < digest }
        guard index < wanted.count, wanted[index].digest == digest else { return nil }
        guard let size = wanted[index].formats[format] else { throw hostile("is not an object of this version") }
        guard member.size == size else { throw hostile("is \(member.size) bytes, but the manifest records \(size)") }
        return (index, format)
    }
}
