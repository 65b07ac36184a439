/// What LMFO order needs of a version, kept beside it so that the next version's order
/// costs reading one small file instead of the history: for each archive scope (the
/// whole version, and each flavor, whether or not it got an archive), every object's
/// `intro` (see `LMFOOrder`), computed over `earlierVersions`, the versions that existed
/// below it when it was written.
///
/// For version v whose newest earlier version is p, an object of p keeps its `intro`
/// (its run of versions reaches v through p), and an object not in p has `intro` v.
/// That holds only while the versions below p are still the ones p's record was
/// computed over: deleting one can join runs. So a record is used only when its
/// `earlierVersions` are exactly the versions now listed below p; otherwise (or with no
/// record: catalogs of other tools, or of older versions of this one) the order is
/// computed from the manifests once, and the new version's record makes the next
/// update fast again.
///
/// `lmfo/BUNDLE-VERSION.json`, `{"version": V, "earlier_versions": [...], "scopes":
/// {"": {"INTRO": ["sha", ...], ...}, "FLAVOR": {...}}}`, written before the version's
/// manifest and never changed. A client may read it as an unsigned hint of the LMFO
/// prefix's length (`FetchPlan.MemberOrder`), through `parse`, which checks every value.
package struct LMFORecord: Equatable {
    static let folder = "lmfo"
    /// The key of the all-files scope.
    static let wholeVersion = ""

    package let version: Int
    /// Sorted ascending.
    let earlierVersions: [Int]
    /// Per scope (`wholeVersion` or a flavor), each object's `intro`.
    package let scopes: [String: [SHA1.Digest: Int]]

    package static func path(bundle: String, version: Int) -> String {
        "\(folder)/\(bundle)-\(version).json"
    }

    package static func key(_ flavor: String?) -> String { flavor ?? wholeVersion }

    /// The record's JSON, keys sorted as `JSONValue` sorts them, written straight to
    /// bytes: a tree of JSON values would hold each of 100,000 shas as a string of its
    /// own, at the end of an import, when it is largest in memory.
    func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(scopes.values.reduce(256) { $0 + $1.count * 43 })
        func append(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        func separate(_ first: Bool) {
            if !first { out.append(UInt8(ascii: ",")) }
        }
        append(#"{"earlier_versions":["#)
        for (i, earlier) in earlierVersions.enumerated() {
            separate(i == 0)
            out.append(contentsOf: String(earlier).utf8)
        }
        append(#"],"scopes":{"#)
        for (s, scope) in scopes.keys.sorted(by: JSONValue.keyPrecedes).enumerated() {
            separate(s == 0)
            JSONValue.writeString(scope, to: &out)
            append(":{")
            var byIntro = [String: [SHA1.Digest]]()
            for (digest, intro) in scopes[scope]! { byIntro[String(intro), default: []].append(digest) }
            for (k, intro) in byIntro.keys.sorted(by: JSONValue.keyPrecedes).enumerated() {
                separate(k == 0)
                JSONValue.writeString(intro, to: &out)
                append(":[")
                for (d, digest) in byIntro[intro]!.sorted().enumerated() {
                    separate(d == 0)
                    out.append(UInt8(ascii: "\""))
                    digest.appendHex(to: &out)
                    out.append(UInt8(ascii: "\""))
                }
                append("]")
            }
            append("}")
        }
        append(#"},"version":"#)
        out.append(contentsOf: String(version).utf8)
        append("}")
        return out
    }

    /// Parses a record, checking every value a record of `version` can hold; a record
    /// that does not is damaged (and the caller computes the order from the manifests).
    package static func parse(_ bytes: [UInt8], path: String, version expected: Int) throws -> LMFORecord {
        func damaged(_ reason: String) -> ZincError { .corruptFile(path: path, reason: reason) }
        guard let root = (try? JSONValue.parse(bytes))?.objectValue else { throw damaged("not a JSON object") }
        guard let version = root["version"]?.intValue, version == Int64(expected) else {
            throw damaged("not the record of version \(expected)")
        }
        guard let earlier = root["earlier_versions"]?.arrayValue?.compactMap(\.intValue).map({ Int($0) }),
            earlier.count == root["earlier_versions"]?.arrayValue?.count,
            zip(earlier, earlier.dropFirst()).allSatisfy({ $0 < $1 }), earlier.allSatisfy({ $0 >= 1 && $0 < expected })
        else {
            throw damaged("'earlier_versions' is not an ascending list of versions below \(expected)")
        }
        guard let scopesJSON = root["scopes"]?.objectValue else { throw damaged("'scopes' is not an object") }
        var scopes = [String: [SHA1.Digest: Int]]()
        for (scope, byIntro) in scopesJSON {
            if scope != wholeVersion { try Names.validateFlavorName(scope) }
            guard let byIntro = byIntro.objectValue else { throw damaged("scope '\(scope)' is not an object") }
            var intros = [SHA1.Digest: Int]()
            for (introText, digests) in byIntro {
                guard let intro = Int(introText), intro >= 1, intro <= expected, let digests = digests.arrayValue else {
                    throw damaged("'\(introText)' in scope '\(scope)' is not a version up to \(expected) with a list of objects")
                }
                for value in digests {
                    guard let digest = value.stringValue.flatMap(SHA1.Digest.init(hex:)), intros.updateValue(intro, forKey: digest) == nil
                    else {
                        throw damaged("scope '\(scope)' lists a value that is not a SHA-1, or an object twice")
                    }
                }
            }
            scopes[scope] = intros
        }
        return LMFORecord(version: expected, earlierVersions: earlier, scopes: scopes)
    }
}
