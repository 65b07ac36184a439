/// A path for the `*at` calls: relative to the open `folder`, or absolute with `AT_FDCWD`.
package struct FilePlace {
    package let folder: Int32
    package let path: String

    package init(folder: Int32, path: String) {
        self.folder = folder
        self.path = path
    }

    /// The folder holding it, or nil for a name alone and for `/`. Searched as UTF-8:
    /// `String.lastIndex(of:)` walks Characters, which cost a tenth of a second of
    /// CPU over the 100,000 objects of a cold import.
    package var parent: FilePlace? {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), path != "/" else { return nil }
        return FilePlace(folder: folder, path: slash == path.startIndex ? "/" : String(path[..<slash]))
    }
}
