import Foundation
import Testing
import ZincTestSupport

/// `zinc promote BUNDLE FROM TO`: the walkthrough's most common step, test to master.
@Suite struct PromoteCommandTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "src"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "master", "--version", "1"])
        try dir.write("src/new.txt", "level 2")
        try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", "Game", "--source", "src"])
        try dir.zinc(["update_distro", "--catalog", "cat", "--bundle", "Game", "--distro", "test", "--version", "2"])
    }

    func promote(_ arguments: String...) throws -> String {
        try dir.zinc(["promote", "--catalog", "cat"] + arguments)
    }

    @Test func movesTheDistributionAndKeepsTheOneItReplaced() throws {
        #expect(
            try promote("Game", "test", "master")
                == "Promoted 'Game-v2' from 'test' to 'master' (was v1); undo with 'zinc promote Game _master master --catalog cat'\n")
        #expect(try dir.zinc(["list", "--catalog", "cat"]) == "Game [1=(_master), 2=(master, test)]\n")
        #expect(try promote("Game", "@test", "master") == "Distribution 'master' already points at 'Game-v2', as 'test' does\n")
        // The undo the message names.
        #expect(try promote("Game", "_master", "master").hasPrefix("Promoted 'Game-v1' from '_master' to 'master' (was v2)"))
        #expect(try promote("Game", "test", "prod", "--no-prev") == "Created distribution 'prod' at 'Game-v2', where 'test' points\n")
    }

    @Test func jsonSaysWhatMoved() throws {
        let output = try promote("Game", "test", "master", "--json", "--no-prev")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["bundle"] as? String == "Game")
        #expect(object["from"] as? String == "test")
        #expect(object["distro"] as? String == "master")
        #expect(object["version"] as? Int == 2)
        #expect(object["previous"] as? Int == 1)
        #expect(object["changed"] as? Bool == true)
        #expect(try dir.zinc(["list", "--catalog", "cat"]) == "Game [1, 2=(master, test)]\n")
    }

    @Test func aMissingDistributionChangesNothing() throws {
        let before = try dir.catalogContent("cat")
        let result = try dir.zinc.run(["promote", "--catalog", "cat", "Game", "tset", "master"])
        #expect(result.status == 1)
        #expect(result.stderr == "zinc: error: bundle 'Game' has no distribution 'tset'; did you mean 'test'?\n")
        let invalid = try dir.zinc.run(["promote", "--catalog", "cat", "Game", "test", "_master"])
        #expect(invalid.status != 0)
        #expect(try dir.catalogContent("cat") == before)
    }
}
