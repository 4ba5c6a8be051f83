import CX11
import Foundation
import Testing
import XorgTestSupport

@Suite struct HeadlessXorgTests {
    @Test(.requiresXorg) func serverAcceptsConnectionsWithTheRequestedScreenSize() throws {
        let server = try HeadlessXorg(width: 1024, height: 600)
        defer { server.stop() }
        let display = try #require(XOpenDisplay(server.displayName))
        defer { XCloseDisplay(display) }
        #expect(XDisplayWidth(display, XDefaultScreen(display)) == 1024)
        #expect(XDisplayHeight(display, XDefaultScreen(display)) == 600)
        #expect(server.isRunning)
        #expect(FileManager.default.fileExists(atPath: server.logURL.path))
    }

    @Test(.requiresXorg) func xinputListsThePenTouchscreenAndKeyboard() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let listing = try run(["xinput", "list", "--name-only"], environment: server.clientEnvironment)
        let names = listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(names.contains(VirtualPen.deviceName))
        #expect(names.contains(VirtualTouchscreen.deviceName))
        #expect(names.contains(VirtualKeyboard.deviceName))
    }

    @Test(.requiresXorg) func twoServersRunSideBySideWithSeparateInput() throws {
        let first = try HeadlessXorg()
        defer { first.stop() }
        let second = try HeadlessXorg()
        defer { second.stop() }
        #expect(first.displayName != second.displayName)

        let firstApp = try RecorderWindow(server: first)
        defer { firstApp.close() }
        let secondApp = try RecorderWindow(server: second)
        defer { secondApp.close() }
        try first.pen.down(at: (50, 60), pressure: 0.3)
        try first.pen.up()

        #expect(firstApp.events(ofKind: .buttonRelease).count == 1)
        #expect(secondApp.drain().filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }.isEmpty)
    }

    @Test(.requiresXorg) func stopLeavesNoProcessSocketOrDirectoryBehind() throws {
        let server = try HeadlessXorg()
        let runDirectory = server.runDirectory.path
        let number = server.displayNumber
        #expect(!processesMentioning(runDirectory).isEmpty, "the server and its guardian run")

        server.stop()
        server.stop()

        #expect(!server.isRunning)
        #expect(kill(server.processID, 0) == -1 && errno == ESRCH, "Xorg \(server.processID) is gone")
        #expect(processesMentioning(runDirectory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: runDirectory))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"))
        #expect(XOpenDisplayFails(server.displayName))
    }

    @Test(.requiresXorg) func recorderSurvivesTheServerGoingAway() throws {
        let server = try HeadlessXorg()
        let app = try RecorderWindow(server: server)
        server.stop()
        #expect(app.drain().isEmpty)
        #expect(!app.isConnected)
        #expect(app.pointerState() == nil)
        app.close()
    }

    private func XOpenDisplayFails(_ name: String) -> Bool {
        guard let display = XOpenDisplay(name) else { return true }
        XCloseDisplay(display)
        return false
    }

    /// Processes whose command line names `text`: the server's arguments and the guardian's
    /// both contain the run directory.
    private func processesMentioning(_ text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let commandLine = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return commandLine.contains(text) ? "\(pid): \(commandLine)" : nil
        }
    }

    private func run(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
        return String(decoding: data, as: UTF8.self)
    }
}
