/// Turns any `Encodable` into a ``JSONValue``, so that every `--json` report is a
/// plain Swift value written by one printer (``JSONValue/prettyEncoded()``), whose bytes
/// do not depend on Foundation's `JSONEncoder` (its number formatting, its escaping of
/// `/`, its key order).
///
/// Keyed containers become objects, unkeyed ones arrays; integers become `.int` (a
/// `UInt64` beyond `Int64.max` throws), `Double` and `Float` `.double`, `nil` `.null`.
/// As with `JSONEncoder`, `encodeIfPresent` of nil leaves the key out (what a
/// synthesized `Encodable` does with an optional property), and a type may ask for
/// its encoder's keyed container more than once to flatten another value's keys into
/// its own object (`try other.encode(to: encoder)`). A value that encodes nothing is
/// an empty object.
///
/// With `keys: .snakeCase` a property's name is written as the reports spell their keys
/// (`bytesRead` as `bytes_read`, `keyID` as `key_id`), so a report need not list its keys
/// by hand. Only keys that are cases of a coding-key enum (what `Encodable` synthesizes)
/// are converted: a dictionary's keys and ``JSONValue``'s members are data (paths,
/// attribute names), written as they are.
package struct JSONValueEncoder: Sendable {
    /// How a coding key's name becomes an object's member name.
    package enum KeyNaming: Sendable {
        /// As the key spells it.
        case asWritten
        /// camelCase as snake_case, as Foundation's `.convertToSnakeCase` does it.
        case snakeCase
    }

    package let keys: KeyNaming

    package init(keys: KeyNaming = .asWritten) {
        self.keys = keys
    }

    package func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: NodeEncoder(node: root, codingPath: [], keys: keys))
        return root.value
    }
}

extension JSONValueEncoder.KeyNaming {
    /// `key`'s member name: converted only when it has a capital and is an enum's case.
    func name(of key: some CodingKey) -> String {
        let written = key.stringValue
        guard self == .snakeCase, written.utf8.contains(where: Self.isCapital),
            Mirror(reflecting: key).displayStyle == .enum
        else { return written }
        return Self.snakeCased(written)
    }

    /// Words start at a capital after a lower-case letter or digit, and at the last capital
    /// of a run followed by a lower-case letter (`URLPath` is `url_path`); all lower-cased.
    private static func snakeCased(_ name: String) -> String {
        let bytes = Array(name.utf8)
        var result = [UInt8]()
        for (index, byte) in bytes.enumerated() {
            if isCapital(byte), index > 0 {
                let previous = bytes[index - 1]
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                let afterWord = !isCapital(previous) && previous != UInt8(ascii: "_")
                let endsAcronym = isCapital(previous) && next.map(isLowerCase) == true
                if afterWord || endsAcronym { result.append(UInt8(ascii: "_")) }
            }
            result.append(isCapital(byte) ? byte + 32 : byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func isCapital(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isLowerCase(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
}

extension JSONValue: Encodable {
    /// A document already built (a file format printed by `dump_index`) encodes as itself.
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, member) in members { try container.encode(member, forKey: MemberKey(key)) }
        }
    }
}

/// An object member's name as a coding key.
private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}

/// One value being encoded: containers hand out nodes for their members and elements
/// before those are encoded, so a node is a reference filled in afterwards.
private final class Node {
    enum Kind { case empty, scalar, object, array }

    private(set) var kind = Kind.empty
    private var scalar = JSONValue.null
    private var members: [String: Node] = [:]
    private var items: [Node] = []

    var value: JSONValue {
        switch kind {
        case .empty: .object([:])
        case .scalar: scalar
        case .object: .object(members.mapValues(\.value))
        case .array: .array(items.map(\.value))
        }
    }

    var count: Int { items.count }

    func set(_ value: JSONValue) {
        become(.scalar)
        scalar = value
    }

    /// Makes this node an object or array, keeping what it holds if it is one already.
    func become(_ kind: Kind) {
        guard kind != self.kind else { return }
        self.kind = kind
        members = [:]
        items = []
    }

    /// A new node for the member `key`, replacing one encoded under it before.
    func member(_ key: String) -> Node {
        become(.object)
        let node = Node()
        members[key] = node
        return node
    }

    /// A new node at the end of this array.
    func element() -> Node {
        become(.array)
        let node = Node()
        items.append(node)
        return node
    }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    let keys: JSONValueEncoder.KeyNaming
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // Asked again, the same object: how a type flattens another's keys into its own.
        node.become(.object)
        return KeyedEncodingContainer(KeyedContainer(node: node, codingPath: codingPath, keys: keys))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.become(.array)
        return UnkeyedContainer(node: node, codingPath: codingPath, keys: keys)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath, keys: keys)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]
    let keys: JSONValueEncoder.KeyNaming

    mutating func encodeNil(forKey key: Key) throws { node.member(keys.name(of: key)).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: NodeEncoder(node: node.member(keys.name(of: key)), codingPath: codingPath + [key], keys: keys))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.member(keys.name(of: key)), codingPath: codingPath + [key], keys: keys).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(keys.name(of: key)), codingPath: codingPath + [key], keys: keys).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath + [MemberKey("super")], keys: keys)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(keys.name(of: key)), codingPath: codingPath + [key], keys: keys)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    let keys: JSONValueEncoder.KeyNaming
    var count: Int { node.count }

    mutating func encodeNil() throws { node.element().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: nextEncoder())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nextEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { nextEncoder() }

    private func nextEncoder() -> NodeEncoder {
        NodeEncoder(node: node.element(), codingPath: codingPath + [MemberKey("\(count)")], keys: keys)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    let keys: JSONValueEncoder.KeyNaming

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(.double(value)) }
    mutating func encode(_ value: Float) throws { node.set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath, keys: keys))
    }

    /// `.int` holds an `Int64`: a larger unsigned value has no exact form in it.
    private func encodeInteger(_ value: some BinaryInteger) throws {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) does not fit in an Int64"))
        }
        node.set(.int(exact))
    }
}
