import ArgumentParser
import Zinc

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 key pair for signing catalogs.",
        discussion: """
            Writes the private key to FILE (PEM, PKCS#8, mode 0600) and the public key to \
            FILE.pub (one line, 'ed25519 HEX'), refusing to replace either, then prints the \
            public key and its key id. Publishers sign with FILE (--sign-key, \
            $ZINC_SIGNING_KEY); clients and verify trust FILE.pub (--trusted-key).
            """
    )

    @Option(help: ArgumentHelp("Where to write the private key; the public key goes to FILE.pub.", valueName: "file"))
    var out: String

    @Flag(help: "Print one JSON document instead: {\"private_key\", \"public_key_file\", \"public_key\", \"key_id\"}.")
    var json = false

    func run() throws {
        let key = try SigningKey.generate()
        try key.write(to: out)
        let publicKey = String(key.publicKey.text.dropLast())
        if json {
            return try printJSON(Report(privateKey: out, publicKeyFile: out + ".pub", publicKey: publicKey, keyID: key.publicKey.id))
        }
        print("Wrote the private key to \(out) and the public key to \(out).pub")
        print("public key: \(publicKey)")
        print("key id: \(key.publicKey.id)")
    }
}

extension Keygen {
    /// `keygen --json`: where the keys went, the public key and its id.
    struct Report: Encodable {
        let privateKey: String
        let publicKeyFile: String
        let publicKey: String
        let keyID: String
    }
}
