import ArgumentParser
import Zinc
import ZincS3

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every storage backend the `zinc` command can open, with their default settings.
let storageRegistry = StorageRegistry.local.registeringS3()

/// A catalog as the user named it, with the backends that reach it.
struct CatalogReference {
    let text: String
    var registry = storageRegistry
    /// `--endpoint-url`, repeated in the commands zinc suggests (`hint`).
    var endpointURL: String? = nil
    /// Signs what the opened catalog commits (`SigningOption`).
    var signer: CatalogSigner?
    /// `--unsigned`: a signed catalog may be changed without a signer.
    var allowsUnsignedChanges = false

    func open() throws -> Catalog {
        try Catalog.open(
            registry.catalogStorage(text), signer: signer, allowsUnsignedChanges: allowsUnsignedChanges)
    }
}

/// `--catalog` (and `--endpoint-url` for remote ones), defined once for every command
/// that reads or changes a catalog.
struct CatalogOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The catalog: a path, file:// URL, s3://BUCKET/PREFIX, or the id of a catalog under catalogs/.",
            discussion: "Defaults to $ZINC_CATALOG."))
    var catalog: String?

    @OptionGroup var remote: RemoteOptions

    /// The catalog named, or $ZINC_CATALOG; a usage error when there is neither.
    var reference: CatalogReference {
        get throws {
            let environment = ProcessInfo.processInfo.environment["ZINC_CATALOG"].flatMap { $0.isEmpty ? nil : $0 }
            guard let text = catalog ?? environment else {
                throw ValidationError("Missing expected argument '--catalog <catalog>' (or set ZINC_CATALOG)")
            }
            return CatalogReference(text: text, registry: remote.registry, endpointURL: remote.endpointURL)
        }
    }
}

/// How to reach remote stores.
struct RemoteOptions: ParsableArguments {
    @Option(
        name: .customLong("endpoint-url"),
        help: ArgumentHelp(
            "The S3-compatible endpoint for s3:// locations (MinIO, R2, a local server).",
            discussion: "Defaults to $AWS_ENDPOINT_URL, else AWS itself.", valueName: "url"))
    var endpointURL: String?

    /// The backends, S3's with this endpoint.
    var registry: StorageRegistry { .local.registeringS3(endpointURL: endpointURL) }
}

/// The Python tool's `-c/--catalog CAT`, defined once for its spellings.
struct PythonCatalogOption: ParsableArguments {
    @Option(name: [.customShort("c"), .customLong("catalog")], help: ArgumentHelp("The catalog.", valueName: "catalog"))
    var text: String

    var reference: CatalogReference { CatalogReference(text: text) }
}
