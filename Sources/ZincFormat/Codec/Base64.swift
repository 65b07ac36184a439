/// Base64 for PEM bodies, in Swift so that it needs neither crypto library: strict,
/// unwrapped, padded.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each alphabet letter, 0xFF for every other byte.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, letter) in alphabet.enumerated() { values[Int(letter)] = UInt8(value) }
        return values
    }()

    package static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let group = bytes[start..<min(start + 3, bytes.count)]
            var word = UInt32(0)
            for (i, byte) in group.enumerated() { word |= UInt32(byte) << (16 - 8 * i) }
            for i in 0..<4 {
                output.append(i <= group.count ? alphabet[Int(word >> (18 - 6 * i) & 0x3F)] : UInt8(ascii: "="))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// nil for anything but canonical base64 (length a multiple of 4, at most two `=`,
    /// which end it).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        guard !input.isEmpty, input.count % 4 == 0, input.count <= 1 << 16 else { return nil }
        let padding = input.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count / 4 * 3)
        var word = UInt32(0)
        for (i, letter) in input.dropLast(padding).enumerated() {
            let value = values[Int(letter)]
            guard value != 0xFF else { return nil }
            word = word << 6 | UInt32(value)
            if i % 4 == 3 {
                output += [UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
                word = 0
            }
        }
        // The last group of 2 or 3 letters carries 1 or 2 bytes (its low bits are padding).
        switch padding {
        case 1: output += [UInt8(word >> 10 & 0xFF), UInt8(word >> 2 & 0xFF)]
        case 2: output.append(UInt8(word >> 4 & 0xFF))
        default: break
        }
        return output
    }
}
