import Zinc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one sync did, per catalog index and per tracked bundle, for people (`line`)
/// and scripts (its `Encodable` form, `zinc sync --json`).
public struct SyncReport: Sendable, Encodable {
    public var catalogs: [CatalogRefresh] = []
    public var bundles: [BundleSync] = []
    /// Folders and objects the final clean-up removed.
    package var removedFolders = 0
    package var removedObjects = 0

    public var failed: Bool { catalogs.contains { $0.error != nil } || bundles.contains { $0.error != nil } }

    /// How the index of one catalog was fetched.
    public struct CatalogRefresh: Sendable, Encodable {
        public let catalog: String
        /// The source that answered, as its URL was spelled; nil when none did.
        package var source: String?
        /// The source that answered, nil when none did.
        public var url: URL? { source.flatMap(catalogLocationURL) }
        package var notModified = false
        package var bytes: Int64 = 0
        package var requests = 0
        /// The link to the catalog's first source, as this sync left its estimate.
        package var link: LinkEstimate?
        /// What each source that failed during this sync did (unreachable, stalled, bytes
        /// found wrong), another source then serving: a mirror to look at.
        public var sourceFailures: [String] = []
        /// What the sync found of a source that changes what it is asked for: a host that
        /// ignores `Range`, from which large files are fetched whole rather than their
        /// changed chunks. Said once per sync.
        package var sourceNotes: [String] = []
        /// Why the index could not be refreshed; its bundles then fail with the same error.
        public var failure: SyncError?
        package var error: String? { failure?.description }

        private enum CodingKeys: String, CodingKey {
            case catalog
            case source = "url"
            case notModified = "not_modified"
            case bytes, requests, link
            case sourceFailures = "source_failures"
            case sourceNotes = "source_notes"
        }

        /// `source_failures` only when a source failed, `source_notes` only when there is
        /// one, and the failure's keys beside the others.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(catalog, forKey: .catalog)
            try container.encodeIfPresent(source, forKey: .source)
            try container.encode(notModified, forKey: .notModified)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(requests, forKey: .requests)
            try container.encodeIfPresent(link, forKey: .link)
            if !sourceFailures.isEmpty { try container.encode(sourceFailures, forKey: .sourceFailures) }
            if !sourceNotes.isEmpty { try container.encode(sourceNotes, forKey: .sourceNotes) }
            try failure?.encode(to: encoder)
        }
    }

    /// What happened to one tracked bundle.
    public struct BundleSync: Sendable, Encodable {
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
        package var estimates: [FetchStrategy: Int64] = [:]
        public var missingObjects = 0
        /// Missing objects taken from archive bytes, and those fetched one by one.
        package var fromArchive = 0
        package var individually = 0
        /// Set when the archive could not be fetched and objects were fetched instead.
        package var archiveUnavailable = false
        /// Missing objects assembled from chunks: the repo's own, and ranges of the
        /// stored objects (`chunkBytes` of them); `reusedBytes` of content were local.
        package var chunkedObjects = 0
        package var chunkBytes: Int64 = 0
        package var reusedBytes: Int64 = 0
        /// Objects a chunk list named but that were fetched whole after all, and why.
        package var chunkFallBacks: [String] = []
        /// The files of the checked-out version found not to hold their objects' bytes
        /// (edited through a link, replaced, removed), and the objects found damaged on
        /// disk, fetched again: the folder was rebuilt.
        public var damagedFiles: [String] = []
        public var damagedObjects: [SHA1.Digest] = []
        /// Why the version's chunk list was not used, when it could not be read.
        package var chunkListError: String?
        /// Why the manifest was fetched whole though the repo held an earlier version's
        /// and the catalog describes its chunks (`manifest-chunks/`).
        package var manifestDeltaError: String?
        /// Traffic for objects only (archive bytes and object requests), and in all (with the manifest).
        package var objectBytes: Int64 = 0
        package var objectRequests = 0
        public var bytes: Int64 = 0
        public var requests = 0
        package var seconds = 0.0
        /// What the update skipped for the budget would have downloaded.
        public var plannedBytes: Int64?
        /// Why the bundle failed (its ``SyncError/code`` is what an app branches on).
        public var failure: SyncError?
        package var error: String? { failure?.description }
        /// The version the install follows and why, when the distribution has a rollout.
        public var follows: FollowedVersion?

        public var name: String { "\(catalog).\(bundle)" + (flavor.map { "~" + $0 } ?? "") }

        public var line: String {
            if let error { return "\(name): failed: \(error)" }
            if outcome == .upToDate {
                return "\(name): up to date at version \(version ?? 0)" + follows.lineSuffix
            }
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
                + "\(seconds.fixedDecimals(2)) s" + follows.lineSuffix
        }

        private enum CodingKeys: String, CodingKey {
            case catalog, bundle, flavor, outcome, strategy, estimates, individually, bytes, requests, seconds
            case previousVersion = "previous_version"
            case version
            case missingObjects = "missing_objects"
            case fromArchive = "from_archive"
            case archiveUnavailable = "archive_unavailable"
            case chunkedObjects = "chunked_objects"
            case chunkBytes = "chunk_bytes"
            case reusedBytes = "reused_bytes"
            case chunkFallBacks = "chunk_fall_backs"
            case chunkListError = "chunk_list_error"
            case manifestDeltaError = "manifest_delta_error"
            case plannedBytes = "planned_bytes"
            case damagedFiles = "damaged_files"
            case damagedObjects = "damaged_objects"
            case objectBytes = "object_bytes"
            case objectRequests = "object_requests"
            case follows
        }

        /// `estimates` keyed by strategy name, `chunk_fall_backs` only when there were
        /// some, and the failure's keys beside the others.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(catalog, forKey: .catalog)
            try container.encode(bundle, forKey: .bundle)
            try container.encodeIfPresent(flavor, forKey: .flavor)
            try container.encode(outcome.rawValue, forKey: .outcome)
            try container.encodeIfPresent(previousVersion, forKey: .previousVersion)
            try container.encodeIfPresent(version, forKey: .version)
            try container.encodeIfPresent(strategy?.rawValue, forKey: .strategy)
            try container.encode(
                Dictionary(uniqueKeysWithValues: estimates.map { ($0.key.rawValue, $0.value) }), forKey: .estimates)
            try container.encode(missingObjects, forKey: .missingObjects)
            try container.encode(fromArchive, forKey: .fromArchive)
            try container.encode(individually, forKey: .individually)
            try container.encode(archiveUnavailable, forKey: .archiveUnavailable)
            try container.encode(chunkedObjects, forKey: .chunkedObjects)
            try container.encode(chunkBytes, forKey: .chunkBytes)
            try container.encode(reusedBytes, forKey: .reusedBytes)
            if !chunkFallBacks.isEmpty { try container.encode(chunkFallBacks, forKey: .chunkFallBacks) }
            try container.encodeIfPresent(chunkListError, forKey: .chunkListError)
            try container.encodeIfPresent(manifestDeltaError, forKey: .manifestDeltaError)
            try container.encode(damagedFiles, forKey: .damagedFiles)
            try container.encode(damagedObjects.map(\.hex), forKey: .damagedObjects)
            try container.encode(objectBytes, forKey: .objectBytes)
            try container.encode(objectRequests, forKey: .objectRequests)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(requests, forKey: .requests)
            try container.encode(seconds, forKey: .seconds)
            try container.encodeIfPresent(plannedBytes, forKey: .plannedBytes)
            try container.encodeIfPresent(follows, forKey: .follows)
            try failure?.encode(to: encoder)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case catalogs, bundles
        case removedFolders = "removed_folders"
        case removedObjects = "removed_objects"
    }
}
