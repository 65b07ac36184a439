/// `verify`'s check of a version's manifest chunk description (`ManifestChunks`): it
/// parses, the chunks lie within the stored file it names, each inflates to its length
/// and hash, and together they make the plain manifest (its size and SHA-256). A version
/// without one passes: older versions have none until `add_manifest_chunks`.
struct ManifestChunksCheck {
    let catalog: Catalog

    /// `plain`: the version's manifest JSON; `gzipped`: the bytes of `manifests/B-V.json.gz`,
    /// when there, which a description written at import names.
    func problems(bundle: String, version: Int, plain: [UInt8], gzipped: [UInt8]?) -> [VerificationReport.Problem] {
        let files = VersionFiles(bundle: bundle, version: version)
        return problems(at: files.manifestChunks, of: files.manifest, plain: plain) {
            try catalog.readManifestChunks(bundle: bundle, version: version)
        } stored: { file in
            file == files.gzippedManifest ? gzipped : try catalog.storage.read(file)
        }
    }

    /// The same checks of the description at `path` (`read` gives it, nil when there is
    /// none) of another chunk-deflated document, whose plain bytes are `plain` (`name`
    /// in messages); `stored` gives the file the description names.
    func problems(
        at path: String, of name: String, plain: [UInt8], read: () throws -> ManifestChunks?,
        stored: (String) throws -> [UInt8]?
    ) -> [VerificationReport.Problem] {
        func problem(_ text: String) -> [VerificationReport.Problem] {
            [VerificationReport.Problem(path: path, problem: text)]
        }
        do {
            guard let description = try read() else { return [] }
            guard let stored = try stored(description.file) else { return problem("names \(description.file), which is missing") }
            guard description.fits(storedSize: Int64(stored.count)) else {
                return problem("its chunks do not fit in the \(stored.count) bytes of \(description.file)")
            }
            let rebuilt = try description.rebuild(held: { _ in nil }) { _, range in
                Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
            }
            guard plain == rebuilt else {
                return problem("its chunks of \(description.file) do not make \(name)")
            }
            return []
        } catch let mismatch as ManifestChunks.Mismatch {
            return problem("\(mismatch)")
        } catch {
            return problem(CatalogVerifier.describe(error))
        }
    }
}
