import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one sync did, per catalog index and per tracked bundle, for people (`line`)
/// and scripts (`json`).
public struct SyncReport: Sendable {
    public var catalogs: [CatalogRefresh] = []
    public var bundles: [BundleSync] = []
    /// Folders and objects the final clean-up removed.
    public var removedFolders = 0
    public var removedObjects = 0

    public var failed: Bool { catalogs.contains { $0.error != nil } || bundles.contains { $0.error != nil } }

    /// How the index of one catalog was fetched.
    public struct CatalogRefresh: Sendable {
        public let catalog: String
        /// The source that answered, nil when none did.
        public var url: String?
        public var notModified = false
        public var bytes: Int64 = 0
        public var requests = 0
        /// The link to the catalog's first source, as this sync left its estimate.
        public var link: LinkEstimate?
        /// What each source that failed during this sync did (unreachable, stalled, bytes
        /// found wrong), another source then serving: a mirror to look at.
        public var sourceFailures: [String] = []
        /// Why the index could not be refreshed; its bundles then fail with the same error.
        public var failure: SyncError?
        public var error: String? { failure?.description }

        public var json: JSONValue {
            var object: [String: JSONValue] = [
                "catalog": .string(catalog), "not_modified": .bool(notModified),
                "bytes": .int(bytes), "requests": .int(Int64(requests)),
            ]
            if let url { object["url"] = .string(url) }
            if let link { object["link"] = link.json }
            if !sourceFailures.isEmpty { object["source_failures"] = .array(sourceFailures.map { .string($0) }) }
            if let failure { object.merge(failure.jsonFields) { $1 } }
            return .object(object)
        }
    }

    /// What happened to one tracked bundle.
    public struct BundleSync: Sendable {
        /// How the sync of the bundle ended.
        public enum Outcome: String, Sendable {
            case upToDate = "up-to-date"
            case updated
            /// Still at its version, whose folder was rebuilt with damaged objects fetched again.
            case repaired
            /// Left at its version: the update would download more than ``SyncOptions/maxBytes``
            /// (``plannedBytes``).
            case skipped
            case failed
        }

        public let catalog: String
        public let bundle: String
        public let flavor: String?
        public let previousVersion: Int?
        public var version: Int?
        public var outcome = Outcome.failed
        /// nil when no object was to be fetched whole (none missing, or all built from chunks).
        public var strategy: FetchStrategy?
        public var estimates: [FetchStrategy: Int64] = [:]
        public var missingObjects = 0
        /// Missing objects taken from archive bytes, and those fetched one by one.
        public var fromArchive = 0
        public var individually = 0
        /// Set when the archive could not be fetched and objects were fetched instead.
        public var archiveUnavailable = false
        /// Missing objects assembled from chunks: the repo's own, and ranges of the
        /// stored objects (`chunkBytes` of them); `reusedBytes` of content were local.
        public var chunkedObjects = 0
        public var chunkBytes: Int64 = 0
        public var reusedBytes: Int64 = 0
        /// Objects a chunk list named but that were fetched whole after all, and why.
        public var chunkFallBacks: [String] = []
        /// The files of the checked-out version found not to hold their objects' bytes
        /// (edited through a link, replaced, removed), and the objects found damaged on
        /// disk, fetched again: the folder was rebuilt.
        public var damagedFiles: [String] = []
        public var damagedObjects: [String] = []
        /// Why the version's chunk list was not used, when it could not be read.
        public var chunkListError: String?
        /// Traffic for objects only (archive bytes and object requests), and in all (with the manifest).
        public var objectBytes: Int64 = 0
        public var objectRequests = 0
        public var bytes: Int64 = 0
        public var requests = 0
        public var seconds = 0.0
        /// What the update skipped for the budget would have downloaded.
        public var plannedBytes: Int64?
        /// Why the bundle failed (its ``SyncError/code`` is what an app branches on).
        public var failure: SyncError?
        public var error: String? { failure?.description }

        public var name: String { "\(catalog).\(bundle)" + (flavor.map { "~" + $0 } ?? "") }

        public var line: String {
            if let error { return "\(name): failed: \(error)" }
            if outcome == .upToDate { return "\(name): up to date at version \(version ?? 0)" }
            if outcome == .skipped {
                return "\(name): skipped version \(version ?? 0): its update would download "
                    + "\(HumanFormat.bytes(plannedBytes ?? 0)), over the budget"
            }
            let from = previousVersion.map(String.init) ?? "none"
            var how = "nothing to download"
            if let strategy {
                how = "\(strategy.rawValue): \(HumanFormat.count(missingObjects, "object")) missing"
                if fromArchive > 0 || strategy != .objects { how += ", \(fromArchive) from the archive" }
                if strategy != .objects { how += ", \(individually) fetched singly" }
                if archiveUnavailable { how += " (archive unavailable)" }
            } else if missingObjects > 0 {
                how = "\(HumanFormat.count(missingObjects, "object")) missing"
            }
            if chunkedObjects > 0 {
                how +=
                    "; \(chunkedObjects) assembled from chunks (\(HumanFormat.bytes(chunkBytes)) fetched, "
                    + "\(HumanFormat.bytes(reusedBytes)) reused)"
            }
            if !damagedObjects.isEmpty || !damagedFiles.isEmpty {
                how +=
                    "; damaged on disk: \(HumanFormat.count(damagedFiles.count, "file")), \(HumanFormat.count(damagedObjects.count, "object")) fetched again"
            }
            let move = outcome == .repaired ? "repaired at version \(version ?? 0)" : "\(from) -> \(version ?? 0)"
            return "\(name): \(move) (\(how)); \(HumanFormat.bytes(bytes)) in \(HumanFormat.count(requests, "request")), "
                + "\(seconds.fixedDecimals(2)) s"
        }

        public var json: JSONValue {
            var object: [String: JSONValue] = [
                "catalog": .string(catalog), "bundle": .string(bundle), "outcome": .string(outcome.rawValue),
                "missing_objects": .int(Int64(missingObjects)), "from_archive": .int(Int64(fromArchive)),
                "individually": .int(Int64(individually)), "archive_unavailable": .bool(archiveUnavailable),
                "object_bytes": .int(objectBytes), "object_requests": .int(Int64(objectRequests)),
                "bytes": .int(bytes), "requests": .int(Int64(requests)), "seconds": .double(seconds),
                "estimates": .object(Dictionary(uniqueKeysWithValues: estimates.map { ($0.key.rawValue, JSONValue.int($0.value)) })),
            ]
            if let flavor { object["flavor"] = .string(flavor) }
            if let previousVersion { object["previous_version"] = .int(Int64(previousVersion)) }
            if let version { object["version"] = .int(Int64(version)) }
            if let strategy { object["strategy"] = .string(strategy.rawValue) }
            object["chunked_objects"] = .int(Int64(chunkedObjects))
            object["chunk_bytes"] = .int(chunkBytes)
            object["reused_bytes"] = .int(reusedBytes)
            if !chunkFallBacks.isEmpty { object["chunk_fall_backs"] = .array(chunkFallBacks.map { .string($0) }) }
            if let chunkListError { object["chunk_list_error"] = .string(chunkListError) }
            if let plannedBytes { object["planned_bytes"] = .int(plannedBytes) }
            object["damaged_files"] = .array(damagedFiles.map { .string($0) })
            object["damaged_objects"] = .array(damagedObjects.map { .string($0) })
            if let failure { object.merge(failure.jsonFields) { $1 } }
            return .object(object)
        }
    }

    public var json: JSONValue {
        .object([
            "catalogs": .array(catalogs.map(\.json)),
            "bundles": .array(bundles.map(\.json)),
            "removed_folders": .int(Int64(removedFolders)),
            "removed_objects": .int(Int64(removedObjects)),
        ])
    }
}
