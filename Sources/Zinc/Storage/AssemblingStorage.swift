/// A store that can put a file together from byte ranges of files it holds already and
/// bytes sent to it (S3's multipart uploads with `UploadPartCopy`), so that publishing a
/// large object or an archive whose bytes are mostly at the destination sends only what
/// is new (see ``AssemblyPlan``).
package protocol AssemblingStorage: CatalogStorage {
    /// The sizes the store's parts must keep to.
    var assemblyLimits: AssemblyLimits { get }

    /// Puts `plan.path` together as `plan` says, the sent bytes and the bytes to check
    /// against read from `file` (the whole file, as it is to be). The file appears whole
    /// under its name only on `.written`, and only if `condition` holds; nothing else is
    /// left behind, however it ends.
    func assemble(_ plan: AssemblyPlan, from file: PosixFile, condition: WriteCondition) throws -> AssemblyResult
}

/// The limits a store puts on the parts of an assembled file.
public struct AssemblyLimits: Equatable, Sendable {
    /// Every part but the last holds at least this many bytes (S3: 5 MiB).
    public let minimumPart: Int64
    /// No part holds more (S3: 5 GiB).
    public let maximumPart: Int64
    /// At most this many parts (S3: 10,000).
    public let maximumParts: Int

    public init(minimumPart: Int64, maximumPart: Int64, maximumParts: Int) {
        self.minimumPart = minimumPart
        self.maximumPart = maximumPart
        self.maximumParts = maximumParts
    }

    /// S3's, which its compatibles (R2, MinIO, moto) share.
    public static let s3 = AssemblyLimits(minimumPart: 5 << 20, maximumPart: 5 << 30, maximumParts: 10_000)
}

/// How an assembly ended.
public enum AssemblyResult: Equatable, Sendable {
    /// The file is in place, checked against the local bytes.
    case written
    /// The condition failed: another writer created the file meanwhile.
    case conditionFailed
    /// The store does not copy parts (GCS's XML API answers `NotImplemented`): the
    /// reason, as the store gave it. Every later assembly of this store is refused at once.
    case refused(String)
    /// A part did not hold the local bytes (a copied range differed from what the
    /// catalog says): the reason. Nothing was put; the file goes up whole instead.
    case mismatch(String)
}

/// A writer of a store that assembles files: the content written, complete, may be put
/// together in the store from bytes it holds rather than uploaded, when a command writes
/// into the store directly (see `StoreAssembly`).
package protocol AssemblingWriter: StorageWriter {
    /// The sizes the store's parts must keep to.
    var assemblyLimits: AssemblyLimits { get }

    /// Makes the file visible at ``StorageWriter/path`` as the store's `assemble` does,
    /// from the content written (all of it: `plan.size` bytes), if `condition` holds. On
    /// `.refused` or `.mismatch` the content is kept, to be committed whole.
    func assemble(_ plan: AssemblyPlan, condition: WriteCondition) throws -> AssemblyResult
}
