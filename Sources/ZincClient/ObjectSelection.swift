/// Some of a sorted list of objects, by index: a flag an object. An archive reader's
/// wanted objects were sets of digests (about 50 bytes an object each), several held at
/// once by a first sync, 20 MB and more at 100,000 files; these flags take 1 byte.
struct ObjectSelection: Equatable, Sendable {
    private var flags: [Bool]

    /// Of `count` objects, those `isSelected` holds for.
    init(count: Int, where isSelected: (Int) -> Bool) {
        flags = (0..<count).map(isSelected)
    }

    /// How many objects are selected.
    var count: Int { flags.lazy.filter { $0 }.count }

    func contains(_ index: Int) -> Bool { flags[index] }

    mutating func insert(_ index: Int) { flags[index] = true }

    /// Those selected here and not in `other` (of as many objects).
    func subtracting(_ other: ObjectSelection) -> ObjectSelection {
        ObjectSelection(count: flags.count) { flags[$0] && !other.flags[$0] }
    }

    /// Those selected here or in `other` (of as many objects).
    func union(_ other: ObjectSelection) -> ObjectSelection {
        ObjectSelection(count: flags.count) { flags[$0] || other.flags[$0] }
    }
}
