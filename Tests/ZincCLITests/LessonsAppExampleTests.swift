import Foundation
import Testing
import ZincTestSupport

/// The iOS-style example (Examples/LessonsApp), built beside `zinc`, run as a user would:
/// its first launch takes the seed the app ships, the next brings the published update,
/// and a catalog that is not there is told by the error's code.
@Suite struct LessonsAppExampleTests {
    private func app(_ arguments: String..., in dir: TemporaryDirectory) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ZincBinary.path).deletingLastPathComponent()
            .appendingPathComponent("LessonsAppExample")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: dir.path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theAppStartsFromItsSeedThenSyncsTheUpdate() throws {
        let dir = try TemporaryDirectory()
        let zinc = ZincRunner(in: dir)
        try dir.write("src/lesson.txt", "bonjour")
        try dir.write("src/audio/1.caf", "sound")
        try zinc("create_catalog", "--id", "com.example.lessons", "--dest", "cat")
        try zinc("update_bundle", "--catalog", "cat", "--bundle", "Lesson", "--source", "src")
        try zinc("update_distro", "--catalog", "cat", "--bundle", "Lesson", "--distro", "master", "--version", "latest")
        try zinc("export_seed", "--catalog", "cat", "--bundle", "Lesson", "--distro", "master", "--out", "seed")
        let catalog = "file://" + dir.at("cat")
        let current = dir.at("app/zinc/current/com.example.lessons.Lesson")

        let first = try app(catalog, "Lesson", "app", "seed", in: dir)
        #expect(first.status == 0)
        #expect(first.output == "Lessons version 1 in \(current) (0 of 0 bytes downloaded)\n")

        try dir.write("src/lesson.txt", "bonjour, salut")
        try zinc("update_bundle", "--catalog", "cat", "--bundle", "Lesson", "--source", "src")
        try zinc("update_distro", "--catalog", "cat", "--bundle", "Lesson", "--distro", "master", "--version", "latest")
        let second = try app(catalog, "Lesson", "app", "seed", in: dir)
        #expect(second.status == 0)
        #expect(second.output == "Lessons version 2 in \(current) (14 of 14 bytes downloaded)\n")
        #expect(dir.files(under: "app/zinc/bundles/com.example.lessons.Lesson-2") == ["audio/1.caf", "lesson.txt"])
        #expect(try dir.read("app/zinc/current/com.example.lessons.Lesson/lesson.txt") == Array("bonjour, salut".utf8))
    }

    @Test func aCatalogThatIsNotThereIsToldByItsCode() throws {
        let dir = try TemporaryDirectory()
        let missing = try app("file://" + dir.at("nothing"), "Lesson", "app", in: dir)
        #expect(missing.status == 1)
        #expect(missing.output == "The lessons could not be reached (\(dir.at("nothing/catalog.json.gz"))). Try again later.\n")
    }
}
