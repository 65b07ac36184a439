import Testing
import ZincClient

/// Which spellings of a catalog URL `track`, `Repo.seed` and `untrack` take as one
/// catalog, and which they keep apart because they may name other files.
@Suite struct CatalogURLSpellingTests {
    @Test func harmlessDifferencesAreFolded() {
        let same: [[String]] = [
            ["https://cdn.example.com/french", "https://cdn.example.com/french/", "HTTPS://CDN.Example.com:443/french//"],
            ["http://cdn.example.com", "http://cdn.example.com/", "http://cdn.example.com:80", "http://cdn.example.com:/"],
            ["http://user@[::1]:80/c", "http://user@[::1]/c/"],
            ["file:///srv/cat", "file:///srv/cat/", "FILE:///srv/./cat", "file:///srv//cat", "file:///srv/x/../cat"],
            ["s3://bucket/prefix", "s3://bucket/prefix/", "S3://bucket/prefix"],
        ]
        for spellings in same {
            #expect(Set(spellings.map(comparableCatalogURL)).count == 1, "\(spellings)")
        }
    }

    @Test func differencesThatMayNameOtherFilesAreKept() {
        let apart: [[String]] = [
            ["https://cdn.example.com/french", "https://cdn.example.com/French", "https://cdn.example.com/fr%65nch"],
            ["http://cdn.example.com/c", "https://cdn.example.com/c", "http://cdn.example.com:8080/c", "http://cdn.example.com:443/c"],
            ["http://User@h/c", "http://user@h/c"],
            ["https://h/c?v=1", "https://h/c/?v=1"],
            ["s3://bucket/Prefix", "s3://bucket/prefix"],
            ["file:///srv/cat", "file:///srv/Cat", "file://srv/cat"],
        ]
        for spellings in apart {
            #expect(Set(spellings.map(comparableCatalogURL)).count == spellings.count, "\(spellings)")
        }
    }
}
