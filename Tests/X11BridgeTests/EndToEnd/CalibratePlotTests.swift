import Foundation
import Testing
import XorgTestSupport

/// `calibrate --plot` on the headless Xorg: the session's contacts drawn into a PNG once it is
/// over, and a file that cannot be written reported without losing the calibration.
@Suite("Calibrating a pen: the picture of the session", .requiresXorg, .serialized)
final class CalibratePlotTests: ServerSuite {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Two light taps and a hard press with the virtual pen, `calibrate --ordinary 2 --hard 1
    /// --plot PATH` listening; its exit status and the binding it printed.
    func calibrate(plot path: String) throws -> (status: Int32?, binding: String, errors: String) {
        let calibrate = try BridgeProcess(["calibrate", "--device", "test-pen", "--ordinary", "2", "--hard", "1", "--plot", path],
                                          server: server, ready: CalibrateTests.listening)
        try CalibrateTests.tap(server, peak: 0.2, at: 200)
        try CalibrateTests.tap(server, peak: 0.3, at: 240)
        #expect(CalibrateTests.waitForMeasured(calibrate, "ordinary", 2), "\(calibrate.child.errorOutput)")
        try CalibrateTests.tap(server, peak: 0.9, at: 280)
        let status = calibrate.child.waitForExit(timeout: 5)
        return (status, calibrate.child.output, calibrate.child.errorOutput)
    }

    @Test("--plot: a PNG of the three contacts, the binding printed as without it")
    func drawsTheSession() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try calibrate(plot: path)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.binding.contains("gesture: deep-press"), "\(run.binding)")
        #expect(run.errors.contains("Drew 3 contacts into \(path)."), "\(run.errors)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == Self.pngSignature)
    }

    @Test("--plot into a folder that does not exist: the binding still printed, then the error and exit status 1")
    func unwritable() throws {
        let path = "/nonexistent-\(UUID().uuidString)/session.png"
        let run = try calibrate(plot: path)
        #expect(run.status == 1, "\(run.errors)")
        #expect(run.binding.contains("gesture: deep-press"), "\(run.binding)")
        #expect(run.errors.contains("error: --plot: cannot write \(path): No such file or directory"), "\(run.errors)")
    }
}
