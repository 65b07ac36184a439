import ArgumentParser
import Zinc

struct UpdateArchivePolicy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update_archive_policy",
        abstract: "Set which versions keep archives: those a distribution names, or all.",
        discussion: """
            Old clients (JavaZinc, the iOS client, the Python tool) download the archive of \
            the version their distribution names; zinc clients need none. With --keep \
            pointed (the default of every catalog) a version has its archives while a \
            distribution or its _NAME pointer names it (update_distro and promote write them \
            first) and for the grace period after, when clean removes them. With --keep all \
            every import writes its archives and clean keeps them; the archives the listed \
            versions lack are written now. The setting is config/archives.json. Without \
            --keep, prints the setting.
            """,
        aliases: ["update-archive-policy"]
    )

    enum Keep: String, ExpressibleByArgument, CaseIterable {
        case pointed, all
    }

    @OptionGroup var catalog: CatalogOption

    @Option(help: "'pointed' (archives of the versions a distribution names) or 'all'.")
    var keep: Keep?

    func run() throws {
        let catalog = try self.catalog.reference.open()
        guard let keep, let policy = ArchivePolicy(rawValue: keep.rawValue) else {
            return print(try catalog.archivePolicy().summary)
        }
        let written = try catalog.setArchivePolicy(policy)
        print(policy.summary + (written.isEmpty ? "" : "; wrote \(HumanFormat.count(written.count, "missing archive"))"))
    }
}
