import Zinc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A manifest's table (`ManifestTable`) written as the manifest's JSON streams in, with
/// nothing of its files held: each file's row and path bytes go to two scratch files as
/// they are parsed (unnamed from the start, so a killed run leaves nothing), and the
/// table is put together from them once what it opens with is known: the manifest's
/// header, which its JSON may give after its files, and the kept copy's size and SHA-256.
/// At 1,000,000 files the table held took 75 MB; written this way, 512 KiB of buffers.
///
/// A table's rows are in path order, and manifests list their files in that order: a
/// manifest that does not leaves no table here (`inPathOrder` false), to be read into a
/// `CompactManifest` and sorted, as every manifest was before.
final class ManifestTableWriter {
    private let rows: PosixFile
    private let paths: PosixFile
    private var builder: CompactManifest.RowBuilder
    private var rowBuffer = [UInt8]()
    private var pathBuffer = [UInt8]()
    /// The path of the file read last.
    private var previous = [UInt8]()
    /// Whether every file so far came after the one before it.
    private(set) var inPathOrder = true
    /// Every file read, in order or not.
    private(set) var fileCount = 0

    /// What each buffer holds before it is written to its scratch file.
    static let bufferSize = 1 << 18

    /// The header of the manifest `document` streams (checked as a manifest read whole
    /// is), and its table's rows and paths written to scratch files in `scratchFolder`.
    static func read(_ document: StreamedDocument, scratchFolder: String) throws -> (header: ManifestHeader, writer: ManifestTableWriter) {
        let writer = try ManifestTableWriter(name: document.name, scratchFolder: scratchFolder)
        let manifest = try Manifest.parse(document) { try writer.add($0, $1) }
        return (ManifestHeader(manifest, fileCount: writer.fileCount), writer)
    }

    private init(name: String, scratchFolder: String) throws {
        builder = CompactManifest.RowBuilder(name: name)
        rows = try Self.scratch(in: scratchFolder, named: "rows")
        paths = try Self.scratch(in: scratchFolder, named: "paths")
    }

    /// A file of `folder` read and written by its descriptor alone: its name is gone at once.
    private static func scratch(in folder: String, named stem: String) throws -> PosixFile {
        let file = try TemporaryFile(in: folder, named: stem)
        file.remove()
        return file.file
    }

    /// The next file of the manifest: its row and path bytes appended while the files
    /// come in path order.
    private func add(_ path: String, _ entry: Manifest.Entry) throws {
        fileCount += 1
        guard inPathOrder else { return }
        var path = path
        let order = path.withUTF8 { next in
            previous.withUnsafeBufferPointer { fileCount == 1 ? -1 : CompactManifest.compare($0, next) }
        }
        if order == 0 { throw ZincError.corruptFile(path: builder.name, reason: "file '\(path)' is listed twice") }
        guard order < 0 else {
            // Sorted in memory instead, from the kept copy: nothing more is written here.
            inPathOrder = false
            (rowBuffer, pathBuffer, previous) = ([], [], [])
            return
        }
        ManifestTable.appendRow(try builder.row(path, entry), to: &rowBuffer)
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: path.utf8)
        pathBuffer.append(contentsOf: path.utf8)
        if rowBuffer.count >= Self.bufferSize { try flush(&rowBuffer, to: rows) }
        if pathBuffer.count >= Self.bufferSize { try flush(&pathBuffer, to: paths) }
    }

    private func flush(_ buffer: inout [UInt8], to file: PosixFile) throws {
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the table at `path` (replacing any), for `header`, the manifest's, and
    /// `manifest`, the kept copy it describes; returns where its parts lie. Only for
    /// files that came in path order.
    func install(_ header: ManifestHeader, manifest: ManifestTable.Subject, at path: String) throws -> ManifestTable.Layout {
        precondition(inPathOrder, "a table is written from files in path order")
        try flush(&rowBuffer, to: rows)
        try flush(&pathBuffer, to: paths)
        let (rowBytes, pathBytes, flavorSets) = (builder.rowCount * ManifestTable.rowSize, builder.pathBytes, builder.flavorSets)
        var rowsAt = 0
        try AtomicFile.write(to: path, durable: false) { table in
            rowsAt = try ManifestTable.encode(
                header, pathBytes: pathBytes, flavorSets: flavorSets, manifest: manifest,
                sections: { emit in
                    try copy(rowBytes, of: rows, to: emit)
                    try copy(pathBytes, of: paths, to: emit)
                }, into: { try table.write($0) })
        }
        return ManifestTable.Layout(header: header, rowsAt: rowsAt, pathBytes: pathBytes, flavorSets: flavorSets)
    }

    /// Gives `emit` the first `count` bytes of `file`, a buffer at a time.
    private func copy(_ count: Int, of file: PosixFile, to emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: min(count, Self.bufferSize))
        var offset = 0
        while offset < count {
            let read = try buffer.withUnsafeMutableBytes { all in
                try file.readFully(into: UnsafeMutableRawBufferPointer(rebasing: all[..<min(all.count, count - offset)]), at: Int64(offset))
            }
            guard read > 0 else { throw ZincError.io(path: file.path, operation: "read", errno: EIO) }
            try buffer.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
            offset += read
        }
    }
}
