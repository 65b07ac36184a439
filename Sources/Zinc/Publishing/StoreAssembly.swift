import Synchronization

/// Assembly for a command writing into a store that assembles files (an import,
/// `update_distro` or `promote` with `--catalog s3://…`), as `publish` assembles what it
/// copies there (see ``AssemblySources``): a large object or an archive whose bytes are
/// mostly in the store already is put together from them, and only what is new is sent.
/// The catalog is the store's own, so its chunk lists and LMFO records, read from the
/// store, say where those bytes are; the new file's layout is known to its writer (the
/// object's chunks, the archive's members), so nothing is read back.
///
/// A file goes up whole, as before, when its writer's store does not assemble files, or
/// when the assembly does not come about (no earlier bytes, a store refusing part copies,
/// a part that differs): `commit` then answers nil.
final class StoreAssembly: Sendable {
    private let catalog: Catalog
    /// Where the bytes of large objects are: the store's objects as listed at the first
    /// large object, and every version's chunk list, read then once.
    private let objectSources = Mutex<AssemblySources?>(nil)

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Commits `writer`'s content, an object whose stored bytes `chunks` describes, by
    /// assembly; nil when it is to be committed whole.
    func commit(_ writer: StorageWriter, object chunks: ObjectChunks, condition: WriteCondition) throws -> CommitResult? {
        try commit(writer, condition: condition) {
            try objectSources.withLock { sources in
                let current = try sources ?? self.sources(listing: ["objects"])
                sources = current
                return try current.copies(ofObject: chunks)
            }
        }
    }

    /// Commits `writer`'s content, the archive of `members` in this order, by assembly;
    /// nil when it is to be committed whole. The store is listed anew for each: the
    /// objects an import stored just before its archives are among the sources.
    func commit(_ writer: StorageWriter, archive members: [StoredObject], condition: WriteCondition) throws -> CommitResult? {
        try commit(writer, condition: condition) {
            try sources(listing: ["objects", "archives"]).copies(
                ofArchive: writer.path, layout: ArchiveLayout(members: members), size: writer.bytesWritten)
        }
    }

    private func commit(_ writer: StorageWriter, condition: WriteCondition, copies: () throws -> [CopiedRange]) throws
        -> CommitResult?
    {
        guard let assembling = writer as? AssemblingWriter else { return nil }
        let limits = assembling.assemblyLimits
        // Below twice the smallest part, at least half of it would be sent anyway.
        guard writer.bytesWritten >= 2 * limits.minimumPart else { return nil }
        let copied = try copies()
        guard !copied.isEmpty, let plan = AssemblyPlan(path: writer.path, size: writer.bytesWritten, copies: copied, limits: limits)
        else { return nil }
        return try catalog.assemblyTally.settle(
            assembling.assemble(plan, condition: condition), of: plan, in: catalog.storage, logger: catalog.logger)
    }

    /// Sources from the store's files in `folders`, as listed now.
    private func sources(listing folders: [String]) throws -> AssemblySources {
        var present = [String: StorageEntry]()
        for folder in folders {
            for entry in try catalog.storage.entries(in: folder) { present[entry.path] = entry }
        }
        return AssemblySources(catalog: catalog, index: try catalog.index(), present: present, uploads: [])
    }
}
