import Foundation
import Testing
import ZincTestSupport

/// The documented exit statuses, each through the binary, and the one error style.
@Suite struct ExitStatusTests {
    let dir: TemporaryDirectory

    init() throws {
        dir = try TemporaryDirectory()
        try SampleContent.basicAdjectives(in: dir)
        _ = try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
        _ = try dir.zinc(["update_bundle", "--catalog", "cat", "--name", "B", "--source", "src", "--quiet"])
    }

    func run(_ arguments: String...) throws -> ZincBinary.Result {
        try dir.zinc.run(arguments)
    }

    @Test func eachStatusMeansOneThing() throws {
        #expect(try run("verify", "--catalog", "cat", "--quiet").status == 0)

        let failure = try run("list", "--catalog", "nowhere")
        #expect(failure.status == 1)
        #expect(failure.stderr.hasPrefix("zinc: error: no catalog at 'nowhere' ("))

        try dir.write("cat/index.json", "{}")
        let problems = try run("verify", "--catalog", "cat", "--quiet")
        #expect(problems.status == 2)
        #expect(problems.stdout.hasPrefix("index.json: differs from catalog.json\n"), "\(problems.stdout)")
        #expect(problems.stderr == "")
        // A check that cannot run is an error, not a finding.
        #expect(try run("verify", "--catalog", "nowhere").status == 1)

        let usage = try run("list", "--distro")
        #expect(usage.status == 64)
        #expect(
            usage.stderr == """
                zinc: error: missing value for '--distro <distro>'
                Help:  --distro <distro>  Show only bundles with this distribution, at the version it points at.
                Usage: zinc list [--catalog <catalog>] [--endpoint-url <url>] [--distro <distro>] [--no-versions] [--all] [--sizes] [--json]
                  See 'zinc list --help' for more information.

                """)
        let validation = try run("serve", "--catalog", "cat", "--root", ".")
        #expect(validation.status == 64)
        #expect(validation.stderr.hasPrefix("zinc: error: give exactly one of --catalog or --root.\nUsage: zinc serve "))
    }

    @Test func theHelpListsTheStatuses() throws {
        let help = try dir.zinc(["--help"])
        #expect(help.contains("Exit status: 0 done; 1 error (one 'zinc: error: ...' line on stderr); 2 verify"))
        #expect(help.contains("found problems; 64 usage error (a wrong command line)."))
    }
}
