#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a seed of one bundle version into the new folder `destination` (see
/// ``SeedFolder``): the index as `catalog.json` holds it, the version's manifest, the
/// signatures of both when the catalog is signed, the distribution when `spec` is one
/// (`seed-distro.json`, which a client started from the seed follows), and the files, each checked
/// against its SHA-1 as a ``BundleClone`` checks it and left read-only, so that a client
/// may hard-link its objects to them.
///
/// The seed is built in a staging folder beside `destination` and renamed into place
/// complete; an existing `destination` (even an empty folder, or a symlink) is
/// refused. An index signature that covers another index than `catalog.json` (a
/// tool that does not sign changed the catalog since) is refused too: a client
/// trusting the key would refuse the seed on the device.
///
/// It only reads the catalog (`export_seed`), so it has no plan: ``run()`` is the whole
/// operation.
public struct SeedExport: Sendable {
    private let catalog: Catalog
    private let bundle: String
    private let spec: VersionSpec
    private let destination: String
    private let options: SeedExportOptions

    /// - Parameters:
    ///   - catalog: the catalog to read.
    ///   - bundle: the bundle's name.
    ///   - spec: the version to export.
    ///   - destination: the seed's folder, which must not exist.
    ///   - options: the flavor, progress and threads.
    public init(
        _ catalog: Catalog, bundle: String, version spec: VersionSpec, to destination: String,
        options: SeedExportOptions = SeedExportOptions()
    ) {
        self.catalog = catalog
        self.bundle = bundle
        self.spec = spec
        self.destination = destination
        self.options = options
    }

    @discardableResult
    public func run() throws -> SeedExportResult {
        try Names.validateBundleName(bundle)
        if let flavor = options.flavor { try Names.validateFlavorName(flavor) }
        let (index, indexSignature) = try signedIndex()
        try Names.validateCatalogID(index.index.id)
        let version = try spec.resolve(in: index.index.bundle(bundle), name: bundle)
        let (manifestJSON, manifestLocation) = try catalog.manifestBytes(bundle: bundle, version: version)
        let manifest = try Manifest.parse(manifestJSON, path: manifestLocation)
        let paths = try manifest.paths(ofExistingFlavor: options.flavor)
        let manifestSignatures = try self.manifestSignatures(of: manifest, bytes: manifestJSON)
        // A version chosen by a distribution carries it, which a client started from the
        // seed then follows; one chosen by number or as the latest carries none.
        var distro: String?
        if case .distro(let name) = spec { distro = name }
        let seed = SeedFolder(catalog: index.index.id, bundle: bundle, version: version, flavor: options.flavor, distro: distro)

        let root = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        let path = root.contains("/") ? root : "./" + root
        let slash = path.lastIndex(of: "/")!
        let parent = slash == path.startIndex ? "/" : String(path[..<slash])
        try StagingFolder.createFolders(parent.split(separator: "/"), in: parent.hasPrefix("/") ? "" : ".")
        try Self.refuseExisting(root)
        let staging = try StagingFolder(in: parent, for: String(path[path.index(after: slash)...]))
        defer { staging.remove() }
        let tree = staging.path + "/seed"
        guard mkdir(tree, 0o755) == 0 else { throw ZincError.io(path: tree, operation: "create folder", errno: errno) }

        // The documents, gzipped as a client downloads them: from the bytes the signatures
        // cover, so the `.gz` copies a catalog keeps (which may lag) never matter.
        var documents: [(String, [UInt8])] = [
            (SeedFolder.descriptionFile, seed.encoded()), (SeedFolder.indexFile, GzipCompressor.compress(index.bytes)),
            (seed.manifestFile, GzipCompressor.compress(manifestJSON)),
        ]
        if let distroBytes = seed.encodedDistro() { documents.append((SeedFolder.distroFile, distroBytes)) }
        if let indexSignature { documents.append((IndexSignature.path, indexSignature)) }
        documents += manifestSignatures.map { ($0.path, $0.bytes) }
        for (file, bytes) in documents {
            try StagingFolder.createFolders(file.split(separator: "/").dropLast(), in: tree)
            try PosixFile.open(tree + "/" + file, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW).write(bytes)
        }

        // The files, as `clone_bundle` writes them (gunzipped, each SHA-1 checked), then made read-only.
        let clone = try BundleClone(
            catalog, bundle: bundle, version: .number(version), into: staging.path + "/clone",
            options: BundleCloneOptions(flavor: options.flavor, progress: options.progress, workers: options.workers)
        ).run()
        let files = tree + "/" + SeedFolder.filesFolder
        guard rename(clone.folder, files) == 0 else { throw ZincError.io(path: files, operation: "rename into place", errno: errno) }
        var bytes: Int64 = 0
        for file in paths.map({ files + "/" + $0 }) {
            var info = stat()
            guard lstat(file, &info) == 0, chmod(file, 0o444) == 0 else {
                throw ZincError.io(path: file, operation: "make read-only", errno: errno)
            }
            bytes += Int64(info.st_size)
        }

        try Self.renameNew(tree, to: root)
        return SeedExportResult(
            seed: seed, folder: root, fileCount: paths.count, bytes: bytes, signingKeys: manifestSignatures.map(\.keyID))
    }

    /// The index (its bytes as `catalog.json` holds them) and the signature covering it,
    /// if the catalog is signed. A signature covering another index is read again once
    /// with the index (a signing writer may have been between its two writes), then refused.
    private func signedIndex() throws -> (StoredIndex, [UInt8]?) {
        let signaturePath = catalog.storage.location + "/" + IndexSignature.path
        for attempt in 0..<2 {
            let index = try catalog.readIndex()
            guard let bytes = try catalog.storage.read(IndexSignature.path) else { return (index, nil) }
            let signature = try IndexSignature.parseUnverified(bytes, path: signaturePath)
            guard signature.indexSHA256 != SHA256.digest(index.bytes) else {
                guard signature.catalog == index.index.id else {
                    throw ZincError.signature(path: signaturePath, reason: "it signs catalog '\(signature.catalog)'")
                }
                return (index, bytes)
            }
            if attempt == 1 { break }
        }
        throw ZincError.signature(
            path: signaturePath,
            reason: "it covers another index than catalog.json (changed by a tool that does not sign): "
                + "sign the catalog again before exporting a seed of it")
    }

    /// Every signature of `manifest` the catalog holds (one per key that signed it), each
    /// checked to cover it, with its path and key id.
    private func manifestSignatures(of manifest: Manifest, bytes: [UInt8]) throws -> [(path: String, bytes: [UInt8], keyID: String)] {
        var found = [(path: String, bytes: [UInt8], keyID: String)]()
        for path in try catalog.storage.list(ManifestSignature.folder)
        where ManifestSignature.manifestPath(ofSignature: path) == manifest.path {
            guard let signatureBytes = try catalog.storage.read(path) else { continue }
            let location = catalog.storage.location + "/" + path
            let signature = try ManifestSignature.parseUnverified(signatureBytes, path: location)
            try signature.check(covers: manifest, bytes: bytes, path: location)
            found.append((path, signatureBytes, signature.keyID))
        }
        return found
    }

    /// Refuses anything at `path`, a symlink or an empty folder included: a seed is
    /// written into a folder of its own, never into or through what is there.
    private static func refuseExisting(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 { throw ZincError.io(path: path, operation: "create the seed folder", errno: EEXIST) }
        if errno != ENOENT { throw ZincError.io(path: path, operation: "check", errno: errno) }
    }

    /// Renames the finished seed into place, never over anything (rename alone would
    /// replace an empty folder made meanwhile).
    private static func renameNew(_ tree: String, to destination: String) throws {
        #if os(Linux)
        if KernelCalls.renameNoReplace(tree, destination) == 0 { return }
        if errno != ENOSYS && errno != EINVAL {
            throw ZincError.io(path: destination, operation: "create the seed folder", errno: errno == ENOTEMPTY ? EEXIST : errno)
        }
        #endif
        try refuseExisting(destination)
        guard rename(tree, destination) == 0 else {
            throw ZincError.io(path: destination, operation: "create the seed folder", errno: errno == ENOTEMPTY ? EEXIST : errno)
        }
    }
}
