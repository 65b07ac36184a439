import ArgumentParser
import Zinc
import ZincClient

struct RepoSeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Start a client repo from a seed folder (see 'export_seed'), with no request.",
        discussion: """
            Checks the seed (its index, manifest and, with trusted keys, their signatures), \
            puts each file's object into the repo by hard link or clone where the file system \
            allows (a copy otherwise), builds the bundle's folder and tracks the bundle at \
            --distro (by default the distribution the seed was exported by, named in its \
            seed-distro.json, or master), fetched from each --catalog by later syncs. Creates \
            the repo (--repo DIR, or $ZINC_REPO) when missing. Files are hashed with --hash or trusted keys (the \
            repo's own for that catalog count); otherwise only their sizes are checked. A repo \
            holding this bundle at the seed's version or a newer one keeps it: an older seed \
            never replaces newer content.
            """
    )

    @OptionGroup var repo: RepoOption

    @Option(help: ArgumentHelp("The seed folder, as 'export_seed' wrote it.", valueName: "DIR"))
    var seed: String

    @Option(
        help: ArgumentHelp(
            "Where later syncs fetch the catalog: http(s)://..., file://... or a local path (repeatable: tried in order).",
            valueName: "URL"))
    var catalog: [String] = []

    @Option(help: "The distribution later syncs follow (default: the seed's, else master).")
    var distro: String?

    @Option(
        name: .customLong("trusted-key"),
        help: ArgumentHelp(
            "Accept only a seed, and later an index and manifests, signed by this public key (repeatable).",
            discussion: "Replaces the catalog's trusted keys; without it, the catalog keeps those it has.", valueName: "file"))
    var trustedKey: [String] = []

    @Flag(help: "Hash every file of the seed, even without trusted keys.")
    var hash = false

    @OptionGroup var files: WritableOption

    @Flag(
        help: """
            Print one JSON document: catalog, bundle, version, flavor, distro, files, {linked,cloned,copied}_objects and _bytes, \
            present_objects, hashed, switched, checked_out_version.
            """)
    var json = false

    func run() throws {
        let keys = try trustedKey.map(PublicKey.load)
        let result = try SyncEngine(repo: openOrCreate(), options: .command).seed(
            from: seed, sources: catalog, distro: distro, trustedKeys: keys, hashing: hash ? .always : .whenSigned,
            writableFiles: files.writable)
        if json {
            try printJSON(result)
            return
        }
        let name = "\(result.catalog).\(result.bundle)" + (result.flavor.map { "~" + $0 } ?? "")
        let tracked = "; tracked at distribution '\(result.distro)'"
        guard result.switched else {
            print("\(name): kept version \(result.checkedOutVersion); the seed holds version \(result.version)" + tracked)
            return
        }
        var placed = [String]()
        for (count, bytes, how) in [
            (result.linkedObjects, result.linkedBytes, "linked"), (result.clonedObjects, result.clonedBytes, "cloned"),
            (result.copiedObjects, result.copiedBytes, "copied"),
        ] where count > 0 {
            placed.append("\(HumanFormat.count(count, "object")) \(how) (\(HumanFormat.bytes(bytes)))")
        }
        if result.presentObjects > 0 { placed.append("\(HumanFormat.count(result.presentObjects, "object")) already present") }
        print(
            "\(name): seeded version \(result.version), \(HumanFormat.count(result.files, "file")); "
                + (placed.isEmpty ? "no objects" : placed.joined(separator: ", ")) + (result.hashed ? "; hashed" : "") + tracked)
    }

    /// The repo, created first when --repo (or $ZINC_REPO) names a folder without one: a
    /// first launch is this one command.
    private func openOrCreate() throws -> Repo {
        guard let folder = try? repo.folderToCreate() else { return try repo.open() }
        return try Repo.openOrCreate(at: folder)
    }
}
