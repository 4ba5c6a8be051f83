import Foundation
import Testing

/// `--plot FILE.png` as a person uses it: analyze and replay write a PNG of the presses, a file
/// that cannot be written is a clear error and exit status 1, and each command's help says so.
@Suite("Command line: --plot draws the presses")
struct PlotCommandTests {
    static let fixture = CommandLineTests.fixture
    static let config = """
        bindings:
          - {name: right-click, gesture: deep-press, threshold: learned, action: {click: right}}

        """
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func temporaryPNG() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-plot-\(UUID().uuidString).png").path
    }

    @Test("analyze and replay write a PNG of the six presses; their usual output is unchanged", arguments: ["analyze", "replay"])
    func writesPNG(command: String) throws {
        let config = try GestureBridgeExecutable.temporaryFile(Self.config, suffix: ".yaml")
        let png = Self.temporaryPNG()
        defer { for path in [config, png] { try? FileManager.default.removeItem(atPath: path) } }
        let plain = try GestureBridgeExecutable.run([command, Self.fixture, "--config", config])
        let run = try GestureBridgeExecutable.run([command, Self.fixture, "--config", config, "--plot", png])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == plain.stdout)
        #expect(run.stderr.contains("Drew 6 contacts into \(png)."), "\(run.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(Array(bytes.prefix(8)) == Self.pngSignature)
        #expect(bytes.count > 10_000)
    }

    @Test("a file that cannot be written: the error names it, exit status 1, no crash", arguments: ["analyze", "replay"])
    func unwritable(command: String) throws {
        let config = try GestureBridgeExecutable.temporaryFile(Self.config, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let path = "/nonexistent-\(UUID().uuidString)/presses.png"
        let run = try GestureBridgeExecutable.run([command, Self.fixture, "--config", config, "--plot", path])
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr.contains("error: --plot: cannot write \(path): No such file or directory"), "\(run.stderr)")
    }

    @Test("the help of analyze, replay and calibrate describes --plot", arguments: ["analyze", "replay", "calibrate"])
    func help(command: String) throws {
        let run = try GestureBridgeExecutable.run([command, "--help"])
        #expect(run.status == 0)
        let flattened = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flattened.contains("--plot <file.png>"), "\(run.stdout)")
        #expect(flattened.contains("PNG file"), "\(run.stdout)")
        #expect(flattened.contains("--plot \(command == "calibrate" ? "my-presses.png" : "presses.png")"), "an example")
    }
}
