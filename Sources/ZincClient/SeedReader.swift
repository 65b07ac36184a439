import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One seed folder (see `Repo.seed`): its description (`seed.json`, and the distribution
/// of `seed-distro.json`), a `FileCatalogSource` over it through which a seed run reads
/// its index and manifest with a sync's checks, and its files, from which that run
/// places the objects the repo lacks. Nothing is written into it.
struct SeedReader: Sendable {
    let folder: String
    let url: String
    let description: SeedFolder
    /// The seed's documents, read as a sync reads a catalog's.
    let chain: SourceChain

    init(folder path: String, repo: Repo) throws {
        folder = Repo.absolute(path)
        url = "file://" + folder
        let file = folder + "/" + SeedFolder.descriptionFile
        guard let bytes = try AtomicFile.read(file, limit: Int64(SeedFolder.descriptionSizeLimit)) else {
            throw ZincError.io(path: file, operation: "read", errno: ENOENT)
        }
        var description = try SeedFolder.parse(bytes, path: file)
        let distroFile = folder + "/" + SeedFolder.distroFile
        if let distroBytes = try AtomicFile.read(distroFile, limit: Int64(SeedFolder.descriptionSizeLimit)) {
            description.distro = try SeedFolder.parseDistro(distroBytes, path: distroFile)
        }
        self.description = description
        chain = SourceChain(catalog: url, sources: [FileCatalogSource(url: url, root: folder)], temporaryFolder: repo.temporaryFolder)
    }

    /// Reads the seed's index through a sync's checks, its signature by `keys` (none: not
    /// checked) except for its expiry (see `Repo.seed`), and checks that it is the catalog
    /// `seed.json` names, lists the seed's version, and has `distro`.
    func index(distro: String, keys: [PublicKey], state: RepoState, in repo: Repo, limit: Int64) async throws -> (
        IndexFetcher.Fetched, CatalogIndex
    ) {
        let (fetched, index) = try await IndexFetcher(repo: repo, limit: limit).fetchFresh(
            via: chain, state: state, trustedKeys: keys, policy: .seed)
        guard index.id == description.catalog else {
            throw ClientError.badResponse(url: url, reason: "holds catalog '\(index.id)', but seed.json names '\(description.catalog)'")
        }
        let entry = try index.bundle(description.bundle)
        guard entry.versions.contains(description.version) else {
            throw ZincError.versionNotFound(bundle: description.bundle, version: "\(description.version) (in the seed's index)")
        }
        _ = try VersionSpec.distro(distro).resolve(in: entry, name: description.bundle)
        return (fetched, index)
    }

    /// One object from the seed's file at `path` into `repo`'s objects/: placed under a
    /// scratch name, hashed there when `hashing` (the bytes checked are the bytes kept,
    /// whatever the seed's file does later), then renamed into place. Returns how, and
    /// its size.
    func place(_ object: StoredObject, from path: String, into repo: Repo, hashing: Bool, signedSHA256: SHA256.Digest?) throws
        -> (FileClone.Method, Int64)
    {
        let source = folder + "/" + SeedFolder.filesFolder + "/" + path
        var info = stat()
        guard lstat(source, &info) == 0 else { throw ZincError.io(path: source, operation: "read", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ClientError.integrity(url: source, reason: "not a regular file")
        }
        let size = Int64(info.st_size)
        if let expected = object.contentSize, expected != size {
            throw ClientError.integrity(url: source, reason: "it has \(size) bytes, but the manifest records \(expected)")
        }
        let scratch = repo.temporaryFolder + "/" + object.sha + ".seed"
        unlink(scratch)
        // A link only to a file no one may write to: the object would change with it.
        let method = try FileClone.place(source, at: scratch, linkable: info.st_mode & 0o222 == 0, mode: 0o444)
        do {
            if hashing { try ObjectVerifier(object: object, signedSHA256: signedSHA256, origin: source).verify(file: scratch) }
            guard rename(scratch, repo.objectFile(object.sha)) == 0 else {
                throw ZincError.io(path: repo.objectFile(object.sha), operation: "move into place", errno: errno)
            }
        } catch {
            unlink(scratch)
            throw error
        }
        return (method, size)
    }
}
