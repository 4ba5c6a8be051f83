import Foundation

/// A fresh folder of the test's own in the temporary directory, its name beginning with
/// `prefix`: its path. The test removes it.
func temporaryFolder(_ prefix: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
