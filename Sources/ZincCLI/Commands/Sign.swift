import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign an existing catalog: every listed manifest, then the index.",
        discussion: """
            Signs each manifest the index lists that has no valid signature by the key yet \
            (reading the objects it names to record the SHA-256 of their content), then signs \
            the index anew, with a higher sequence number and a new expiry, then renews every \
            live rollout file the same way. Run it to sign a \
            catalog written without a key, after another tool changed it, or before the index \
            signature expires.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var signing: SigningOption

    @Flag(
        help:
            "Print one JSON document instead: {\"manifests_signed\", \"manifests_already_signed\", \"key\", \"sequence\", \"signed\", \"expires\", \"rollouts_renewed\"}."
    )
    var json = false

    @Flag(help: "Do not show a progress bar.")
    var quiet = false

    @Option(help: ArgumentHelp("Who renews the rollout files, for their log.", discussion: "Defaults to $USER."))
    var actor: String?

    func run() throws {
        let report: SigningReport
        do {
            guard let signer = try signing.signer() else {
                throw ValidationError("Missing expected argument '--sign-key <file>' (or set ZINC_SIGNING_KEY)")
            }
            let catalog = try self.catalog.reference.open()
            let bar = ProgressBar(quiet: quiet || json)
            defer { bar.finish() }
            report = try CatalogSigning(catalog, signer: signer, actor: RolloutChangeOptions.user(actor)).run { bar.show($0) }
        }
        if json { return try printJSON(report) }
        print(
            "Signed \(report.manifestsSigned) manifest\(report.manifestsSigned == 1 ? "" : "s") "
                + "(\(report.manifestsAlreadySigned) already signed) and the index with key \(report.index.keyID): "
                + "sequence \(report.index.sequence), expires \(GraceOption.describe(Date(timeIntervalSince1970: Double(report.index.expiresAt))))"
                + (report.rolloutsRenewed == 0
                    ? "" : "; renewed \(report.rolloutsRenewed) rollout\(report.rolloutsRenewed == 1 ? "" : "s")")
        )
    }
}
