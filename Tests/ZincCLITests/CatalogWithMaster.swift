import Testing
import ZincTestSupport

/// The catalog `cat` in `dir`, holding version 1 of `bundle` imported from `source`, with
/// `master` pointing at it.
func makeCatalogWithMaster(in dir: TemporaryDirectory, bundle: String, source: String = "src") throws {
    try dir.zinc(["create_catalog", "--id", "com.example.app", "--dest", "cat"])
    try dir.zinc(["update_bundle", "--catalog", "cat", "--bundle", bundle, "--source", source])
    try dir.zinc(["update_distro", "--catalog", "cat", "--bundle", bundle, "--distro", "master", "--version", "1"])
}
