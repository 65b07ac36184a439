import Testing
import Zinc

/// gitignore's rules, as imports apply them to source paths.
@Suite struct IgnorePatternsTests {
    private func patterns(_ lines: String...) throws -> IgnorePatterns {
        var patterns = IgnorePatterns()
        try patterns.add(lines: lines.joined(separator: "\n"), source: "test")
        return patterns
    }

    @Test func namesMatchAtAnyDepthAndSlashesAnchor() throws {
        let p = try patterns("*.psd", "build/", "/top.txt", "docs/*.md")
        #expect(p.excludes("a.psd", isFolder: false))
        #expect(p.excludes("art/raw/a.psd", isFolder: false))
        #expect(!p.excludes("a.psd.png", isFolder: false))
        #expect(p.excludes("build", isFolder: true))
        #expect(p.excludes("x/build", isFolder: true))
        #expect(!p.excludes("x/build", isFolder: false))  // a trailing slash matches folders only
        #expect(p.excludes("top.txt", isFolder: false))
        #expect(!p.excludes("sub/top.txt", isFolder: false))
        #expect(p.excludes("docs/readme.md", isFolder: false))
        #expect(!p.excludes("docs/deep/readme.md", isFolder: false))  // * stops at a slash
        #expect(!p.excludes("other/docs/readme.md", isFolder: false))
    }

    @Test func doubleStarsClassesAndQuestionMarks() throws {
        let p = try patterns("**/cache", "assets/**/*.tmp", "logs/**", "file?.[ch]", "[!a-c]x.bin")
        #expect(p.excludes("cache", isFolder: true))
        #expect(p.excludes("a/b/cache", isFolder: false))
        #expect(p.excludes("assets/x.tmp", isFolder: false))
        #expect(p.excludes("assets/a/b/x.tmp", isFolder: false))
        #expect(!p.excludes("other/assets/x.tmp", isFolder: false))
        #expect(p.excludes("logs/a/b", isFolder: false))
        #expect(!p.excludes("logs", isFolder: false))
        #expect(p.excludes("file1.c", isFolder: false))
        #expect(p.excludes("fileZ.h", isFolder: false))
        #expect(!p.excludes("file10.c", isFolder: false))
        #expect(!p.excludes("file1.o", isFolder: false))
        #expect(p.excludes("dx.bin", isFolder: false))
        #expect(!p.excludes("bx.bin", isFolder: false))
    }

    @Test func laterPatternsWinAndNegationTakesBack() throws {
        let p = try patterns("# a comment", "", "*.log", "!keep.log", "\\#literal", "\\!bang", "trailing   ")
        #expect(p.excludes("a.log", isFolder: false))
        #expect(!p.excludes("keep.log", isFolder: false))
        #expect(!p.excludes("# a comment", isFolder: false))
        #expect(p.excludes("#literal", isFolder: false))
        #expect(p.excludes("!bang", isFolder: false))
        #expect(p.excludes("trailing", isFolder: false))
    }

    @Test func refusesWhatIsNotAPattern() {
        var p = IgnorePatterns()
        #expect(throws: ZincError.invalidPattern(source: "--exclude", pattern: "/", reason: "is not a pattern")) {
            try p.add("/", source: "--exclude")
        }
        #expect(throws: ZincError.invalidPattern(source: ".zincignore:2", pattern: "a[bc", reason: "has a '[' without its ']'")) {
            try p.add(lines: "ok\na[bc", source: ".zincignore")
        }
    }
}
