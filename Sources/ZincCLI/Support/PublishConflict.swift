import Zinc

/// What `publish` says when a version file at the destination differs from the source's
/// (both catalogs made that version, each its own): which side to keep, and the commands
/// that keep it, written for the catalogs this publish was given.
struct PublishConflict: Error, CustomStringConvertible {
    let error: ZincError
    let bundle: String
    let version: Int
    let source: CatalogReference
    let destination: CatalogReference

    /// The way forward for `error`, when it names a version file; nil otherwise.
    init?(_ error: ZincError, source: CatalogReference, destination: CatalogReference) {
        guard error.differingSource != nil, let path = error.path,
            let (bundle, version) = Self.version(named: path)
        else { return nil }
        (self.error, self.bundle, self.version, self.source, self.destination) = (error, bundle, version, source, destination)
    }

    var description: String {
        let remove = { (catalog: CatalogReference) in
            "\(catalog.hint("delete_bundle", "--bundle", bundle, "--versions", "\(version)")) and \(catalog.hint("clean", "--force", "--grace", "0"))"
        }
        return "\(error). To keep this catalog's version \(version) of '\(bundle)', take the destination's out "
            + "(\(remove(destination))) and publish again; to keep the destination's (clients may have it), take this one's out "
            + "(\(remove(source))), then \(CommandHint.zinc(["publish", "--catalog", destination.text, "--to", source.text])) "
            + "and import your change again as a new version"
    }

    /// The bundle and version a version file (`manifests/B-3.json`, `archives/B-3~f.tar`,
    /// …) is named for.
    private static func version(named path: String) -> (String, Int)? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2] != "objects" else { return nil }
        var name = parts[parts.count - 1]
        while let dot = name.lastIndex(of: ".") { name = name[..<dot] }
        if let tilde = name.firstIndex(of: "~") { name = name[..<tilde] }
        guard let dash = name.lastIndex(of: "-"), let version = Int(name[name.index(after: dash)...]) else { return nil }
        return (String(name[..<dash]), version)
    }
}
