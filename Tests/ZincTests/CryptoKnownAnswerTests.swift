import Testing

@testable import Zinc

/// Published test vectors through every digest, MAC and signature Zinc computes, so
/// that each crypto backend is held to the same answers: OpenSSL on Linux, and
/// CryptoKit's API (`make portable-check` runs these through swift-crypto, as an iOS
/// build has it).
@Suite struct CryptoKnownAnswerTests {
    private static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map {
            let start = hex.index(hex.startIndex, offsetBy: $0)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    /// FIPS 180's examples, the million `a`s fed in uneven chunks.
    @Test func sha1() {
        #expect(SHA1.hash([]) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hash(Array("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        let hasher = SHA1()
        var fed = 0
        while fed < 1_000_000 {
            let chunk = min(65_537, 1_000_000 - fed)
            hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: chunk))
            fed += chunk
        }
        #expect(hasher.finalize() == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func sha256() {
        #expect(SHA256.digest([]).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.digest(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let hasher = SHA256()
        hasher.update(Array("a".utf8))
        hasher.update(Array("bc".utf8))
        #expect(hasher.finalize().hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// RFC 1321's examples.
    @Test func md5() {
        #expect(Hex.encode(MD5.digest([])) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Hex.encode(MD5.digest(Array("message digest".utf8))) == "f96b697d7cb7938d525a2f31aaf161d0")
    }

    /// RFC 4231's test cases 1, 2 and 6 (a key longer than a block is hashed first).
    @Test func hmacSHA256() {
        let cases: [(key: [UInt8], message: String, mac: String)] = [
            ([UInt8](repeating: 0x0B, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            (
                [UInt8](repeating: 0xAA, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ]
        for (key, message, mac) in cases {
            #expect(Hex.encode(HMACSHA256.authenticate(Array(message.utf8), key: key)) == mac)
        }
    }

    /// RFC 8032's tests 1 to 3 for Ed25519: seed, public key, message, signature.
    @Test(arguments: [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    ])
    func ed25519(seed: String, publicKey: String, message: String, signature: String) throws {
        let pem = "\(SigningKey.pemHeader)\n\(Base64.encode(SigningKey.pkcs8Prefix + Self.bytes(seed)))\n\(SigningKey.pemFooter)\n"
        let key = try SigningKey.parse(pem: Array(pem.utf8), path: "rfc8032")
        #expect(key.publicKey.raw == Self.bytes(publicKey))
        let message = Self.bytes(message)
        let signed = key.sign(message)
        #if !canImport(CryptoKit)
        // Apple's CryptoKit randomizes Ed25519 signatures; every other backend gives RFC 8032's.
        #expect(signed == Self.bytes(signature))
        #endif
        let trusted = try PublicKey(raw: Self.bytes(publicKey))
        #expect(trusted.verifies(signed, of: message))
        #expect(trusted.verifies(Self.bytes(signature), of: message))
        var forged = Self.bytes(signature)
        forged[7] ^= 0x10
        #expect(!trusted.verifies(forged, of: message))
        #expect(!trusted.verifies(Self.bytes(signature), of: message + [0]))
        #expect(!trusted.verifies(Array(Self.bytes(signature).dropLast()), of: message))
    }

    /// The PEM of RFC 8032's first key is byte for byte what `openssl genpkey` and
    /// Python's `cryptography` write for it, and reads back to the same key.
    @Test func pemMatchesOpenSSLAndRoundTrips() throws {
        let pem =
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----\n"
        let key = try SigningKey.parse(pem: Array(pem.utf8), path: "k")
        #expect(key.publicKey.raw == Self.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        #expect(try key.pem() == Array(pem.utf8))
        let generated = try SigningKey.generate()
        #expect(try SigningKey.parse(pem: generated.pem(), path: "g").publicKey == generated.publicKey)
    }

    /// Base64 of every length from 0 to 7 bytes round-trips; anything but canonical,
    /// padded, unwrapped base64 is refused.
    @Test func base64() {
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode(Array("fooba".utf8)) == "Zm9vYmE=")
        #expect(Base64.encode(Array("foob".utf8)) == "Zm9vYg==")
        for count in 1...7 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: 0xF7 &* ($0 + 3)) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        for refused in ["", "Zm9", "Zm9vY===", "Zm=vYg==", "Zm9v Yg=", "Zm9vYg-=", "Zm9vYg\n="] {
            #expect(Base64.decode(refused) == nil, "\(refused)")
        }
    }
}
