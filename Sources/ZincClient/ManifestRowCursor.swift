import Zinc

/// A version's files of one flavor, one at a time in path order, with only the current
/// one held: the version an update goes to, as its merge with the spare's files steps
/// through it, from a table held (`CompactManifest.Cursor`) or from its table file
/// (`ManifestTableRows.Cursor`).
protocol ManifestRowCursor {
    /// Steps to the next file; false past the last. Throws at a row that breaks a rule:
    /// nothing given before is then to be believed.
    mutating func next() throws -> Bool
    /// The current file's path, its bytes (valid until the next step).
    var path: [UInt8] { get }
    /// The current file's row: its index among the version's files of every flavor.
    var ordinal: UInt32 { get }
    var object: StoredObject { get }
}

extension ManifestRowCursor {
    /// The current file, its path made now.
    var row: ManifestRow { ManifestRow(ordinal: ordinal, path: String(decoding: path, as: UTF8.self), object: object) }
}
