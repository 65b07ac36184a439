import Testing
import ZincTestSupport

/// Runs zinc in `directory` expecting success and a silent stderr (no warnings, and no
/// progress bar since stdout is a pipe); returns stdout.
@discardableResult
func zincSucceeds(_ arguments: [String], in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try ZincRunner(in: directory)(arguments, sourceLocation: sourceLocation)
}

/// The catalog `cat` in `dir`, holding version 1 of `bundle` imported from `source`, with
/// `master` pointing at it.
func makeCatalogWithMaster(in dir: TemporaryDirectory, bundle: String, source: String = "src") throws {
    try zincSucceeds(["create_catalog", "--id", "com.example.app", "--dest", "cat"], in: dir.path)
    try zincSucceeds(["update_bundle", "--catalog", "cat", "--bundle", bundle, "--source", source], in: dir.path)
    try zincSucceeds(["update_distro", "--catalog", "cat", "--bundle", bundle, "--distro", "master", "--version", "1"], in: dir.path)
}
