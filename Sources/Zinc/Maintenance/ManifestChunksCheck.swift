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
        let storage = catalog.storage
        func problem(_ text: String, at path: String = files.manifestChunks) -> [VerificationReport.Problem] {
            [VerificationReport.Problem(path: path, problem: text)]
        }
        do {
            guard let description = try catalog.readManifestChunks(bundle: bundle, version: version) else { return [] }
            let named = description.file == files.gzippedManifest ? gzipped : try storage.read(description.file)
            guard let stored = named else { return problem("names \(description.file), which is missing") }
            guard description.fits(storedSize: Int64(stored.count)) else {
                return problem("its chunks do not fit in the \(stored.count) bytes of \(description.file)")
            }
            let rebuilt = try description.rebuild(held: { _ in nil }) { _, range in
                Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
            }
            guard plain == rebuilt else {
                return problem("its chunks of \(description.file) do not make \(files.manifest)")
            }
            return []
        } catch let mismatch as ManifestChunks.Mismatch {
            return problem("\(mismatch)")
        } catch {
            return problem(CatalogVerifier.describe(error))
        }
    }
}
