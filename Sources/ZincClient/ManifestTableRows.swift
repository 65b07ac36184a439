import Zinc

/// A kept version's files read one at a time from its table (`ManifestTable`), in path
/// order, with nothing of them held but the row and path being read: what an update
/// compares its spare's files with, where the spare's table read whole took 7.6 MB at
/// 100,000 files beside the new version's.
///
/// The table is checked whole before any row is given (its header against the kept
/// manifest, as `trust` takes it, and its checksum, taken over every byte 64 KiB at a
/// time); each row is then checked as it is read, as a table read whole is: its path
/// inside the path bytes, safe and after the one before, its flavor set and sizes. Two
/// readers go through the file side by side, one over the rows and one over the path
/// bytes, which a table lays out in row order: a table whose paths are laid out in
/// another order (none that zinc writes) is refused like a broken one.
struct ManifestTableRows {
    private let file: PosixFile
    private let path: String
    private let layout: ManifestTable.Layout

    /// The table of `tracked`'s bundle at `version`, nil when there is none, `trust` takes
    /// none, or it is not sound or does not describe the kept manifest.
    init?(_ tracked: RepoState.TrackedBundle, version: Int, in repo: Repo, trust: ManifestTable.Trust) throws {
        path = repo.manifestTableFile(tracked.catalog, bundle: tracked.bundle, version: version)
        guard trust != .never,
            let subject = try ManifestTable.subject(
                catalog: tracked.catalog, bundle: tracked.bundle, version: version, in: repo, trust: trust),
            let file = try? PosixFile.open(path), let layout = try? ManifestTable.layout(file, subject: subject)
        else { return nil }
        self.file = file
        self.layout = layout
    }

    /// Gives `body` each file of `flavor` (every file for nil), in path order: its path's
    /// bytes and its object. Throws, having given some, at the first row that breaks a
    /// rule: nothing given is then to be believed.
    func forEach(flavor: String?, _ body: (UnsafeBufferPointer<UInt8>, SHA1.Digest) -> Void) throws {
        let member = CompactManifest.membership(of: layout.flavorSets, flavor)
        let rowBytes = layout.header.fileCount * ManifestTable.rowSize
        guard var rows = reader(at: layout.rowsAt, count: rowBytes), var paths = reader(at: layout.pathsAt, count: layout.pathBytes)
        else { throw broken("its rows run past its end") }
        var previous = [UInt8]()
        var start = 0
        for index in 0..<layout.header.fileCount {
            guard let row = try ManifestTable.row(&rows, pathBytes: layout.pathBytes, sets: layout.flavorSets.count),
                Int(row.start) == start
            else { throw broken("row \(index) is not a file's row in path order") }
            start += Int(row.length)
            let holds = try paths.take(Int(row.length)) { bytes -> Bool in
                let path = bytes.assumingMemoryBound(to: UInt8.self)
                let holds = previous.withUnsafeBufferPointer { ManifestTable.pathHolds(path, after: index > 0 ? $0 : nil) }
                guard holds else { return false }
                if member[Int(row.flavorSet)] { body(path, row.digest) }
                previous.removeAll(keepingCapacity: true)
                previous.append(contentsOf: path)
                return true
            }
            guard holds == true else { throw broken("the path of row \(index) is not safe, or not after the one before") }
        }
    }

    /// A reader of the `count` bytes at `offset` of the file, taken in pieces of 64 KiB.
    private func reader(at offset: Int, count: Int) -> ManifestTableReader? {
        // The reader stops 8 bytes before its size, where a table's checksum starts.
        ManifestTableReader(size: count + 8) { [file] buffer, at in try file.readFully(into: buffer, at: Int64(offset + at)) }
    }

    private func broken(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
}
