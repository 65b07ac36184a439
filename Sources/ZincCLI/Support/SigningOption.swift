import ArgumentParser
import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--sign-key FILE` (or $ZINC_SIGNING_KEY) and `--expires-in DAYS`, defined once for
/// every command that changes a catalog's index or adds a manifest: with a key, the
/// library signs what the command commits (see docs/SIGNING.md).
struct SigningOption: ParsableArguments {
    @Option(
        name: .customLong("sign-key"),
        help: ArgumentHelp(
            "Sign the manifests and the index this command writes with this Ed25519 private key (from 'zinc keygen').",
            discussion: "Defaults to $ZINC_SIGNING_KEY; without either, nothing is signed.", valueName: "file"))
    var signKey: String?

    @Option(
        name: .customLong("expires-in"),
        help: ArgumentHelp(
            "Days the index signature stays valid; clients refuse it afterwards.", valueName: "days"))
    var expiresIn: Int = 30

    @Flag(
        help: ArgumentHelp(
            "Change a signed catalog without signing the change.",
            discussion:
                "Clients that trust its key then refuse the new index until 'zinc sign' signs it again. Without a key or this flag, a change to a signed catalog is refused."
        ))
    var unsigned = false

    func validate() throws {
        guard (1...3650).contains(expiresIn) else { throw ValidationError("--expires-in must be 1 to 3650 days, not \(expiresIn)") }
        if unsigned, signKey != nil { throw ValidationError("give --sign-key or --unsigned, not both") }
    }

    /// The key file named, or $ZINC_SIGNING_KEY; nil when neither names one.
    var keyPath: String? {
        signKey ?? ProcessInfo.processInfo.environment["ZINC_SIGNING_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The signer for the key named; nil when none is (or with --unsigned, whatever
    /// $ZINC_SIGNING_KEY says).
    func signer() throws -> CatalogSigner? {
        guard !unsigned else { return nil }
        return try keyPath.map { CatalogSigner(key: try SigningKey.load(path: $0), validity: .seconds(Int64(expiresIn) * 86_400)) }
    }

    /// The options as arguments, for commands that run another one (`catalog:create`).
    var arguments: [String] {
        (signKey.map { ["--sign-key=\($0)"] } ?? []) + ["--expires-in=\(expiresIn)"] + (unsigned ? ["--unsigned"] : [])
    }
}

extension CatalogReference {
    /// This reference, opened with the signer `signing` names.
    func signed(by signing: SigningOption) throws -> CatalogReference {
        var reference = self
        reference.signer = try signing.signer()
        reference.allowsUnsignedChanges = signing.unsigned
        return reference
    }
}
