/// Who an install is to a rollout: its id, which draws it in or out, and its attributes,
/// which a rollout's conditions test. A repo makes a random id when it is made and keeps
/// it; an app may give its own (a user's, so that one person's devices move together).
public struct InstallIdentity: Equatable, Sendable {
    public let id: String
    public var attributes: [String: String]

    /// Refuses an id that is empty, longer than 128 bytes or holds control characters.
    public init(id: String, attributes: [Attribute] = []) throws {
        guard (1...128).contains(id.utf8.count),
            !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ZincError.invalidName(kind: "install id", value: id, reason: "it must be 1 to 128 bytes without control characters")
        }
        self.id = id
        self.attributes = [:]
        for attribute in attributes { self.attributes[attribute.key] = attribute.value }
    }

    /// A new random id: 16 random bytes in hex.
    public static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// These attributes with `overrides` set over them.
    public func with(_ overrides: [Attribute]) -> InstallIdentity {
        var copy = self
        for attribute in overrides { copy.attributes[attribute.key] = attribute.value }
        return copy
    }
}
