import Foundation
import Testing

/// `make fuzz` runs the targets its Makefile lists, each from its seed folder: a target
/// added to ZincFuzz but not to the list is never fuzzed, and one without seeds stops the run.
@Suite struct FuzzTargetListTests {
    @Test func makeFuzzListsEveryTargetAndEachHasSeeds() throws {
        let root = ArchitectureDocTests.root
        let source = try String(contentsOfFile: root + "/Fuzz/ZincFuzz/ZincFuzz.swift", encoding: .utf8)
        let defined = Set(
            source.split(separator: "\n").compactMap { line -> String? in
                // A target's entry: `    "name": { ...`, four spaces in.
                guard line.hasPrefix("    \""), let end = line.dropFirst(5).firstIndex(of: "\""),
                    line[end...].hasPrefix("\": {")
                else { return nil }
                return String(line[line.index(line.startIndex, offsetBy: 5)..<end])
            })
        let makefile = try String(contentsOfFile: root + "/Makefile", encoding: .utf8)
        let listLine = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("FUZZ_TARGETS := ") })
        let listed = Set(listLine.dropFirst("FUZZ_TARGETS := ".count).split(separator: " ").map(String.init))
        #expect(!defined.isEmpty)
        #expect(
            listed == defined,
            "in ZincFuzz, not in the Makefile: \(defined.subtracting(listed).sorted()); the reverse: \(listed.subtracting(defined).sorted())"
        )
        let seeded = Set(try FileManager.default.contentsOfDirectory(atPath: root + "/Fuzz/corpus"))
        #expect(listed.subtracting(seeded).isEmpty, "no seed folder: \(listed.subtracting(seeded).sorted())")
    }
}
