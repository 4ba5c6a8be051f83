import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// A headless Xorg with a window on it that records what an application receives: where
/// most end-to-end tests play their script, each on its own (`StageSuite`).
final class Stage {
    let server: HeadlessXorg
    let window: RecorderWindow

    var pen: VirtualPen { server.pen }
    var touch: VirtualTouchscreen { server.touch }

    /// A fresh server with a full-screen window (`touchAware`: selecting touch events); with
    /// `mouse`, the server has a plain mouse too, named `mouseName`.
    init(touchAware: Bool = false, mouse: Bool = false, mouseName: String = VirtualMouse.deviceName) throws {
        server = try HeadlessXorg(mouse: mouse, mouseName: mouseName)
        do {
            window = try RecorderWindow(server: server, touchAware: touchAware)
        } catch {
            server.stop()
            throw error
        }
    }

    /// Closes the window, then stops the server.
    func stop() {
        window.close()
        server.stop()
    }

    /// `gesture-bridge run --json` with `options` on this stage, once it listens; with
    /// `config`, that text in a temporary file is its `--config`.
    func bridge(_ options: [String] = [], config: String? = nil, environment: [String: String] = [:]) throws -> BridgeProcess {
        try server.bridge(options, config: config, environment: environment)
    }

    /// A person lays the pen aside before a finger's gesture: it leaves range, and the bridge
    /// has heard no hovering sample of it for longer than `PalmRule.hoverGap` (a touch made
    /// while the pen hovers is a hand resting where it writes, with no gesture).
    func layPenAside(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try pen.leave()
        #expect(try bridge.waitUntilAsleep(quiet: PalmRule.hoverGap + 0.05), sourceLocation: sourceLocation)
    }

    /// What the window receives up to a key tapped now (`a`, keycode 38): input the server
    /// took before the tap has reached the window by then. An issue when the tap does not come.
    @discardableResult
    func eventsUntilKeyTapped(sourceLocation: SourceLocation = #_sourceLocation) throws -> [RecordedEvent] {
        try server.keyboard.tap(keycode: 38)
        let tapped = { (events: [RecordedEvent]) in events.contains { $0.kind == .keyRelease && $0.detail == 38 } }
        let events = window.events(until: tapped)
        #expect(tapped(events), "the key tapped after the input never reached the window", sourceLocation: sourceLocation)
        return events
    }

    /// The buttons the core pointer holds, read until none is or `timeout` passes (the last
    /// reading either way; nil once the server is gone). The bridge prints its lines before its
    /// X requests reach the server, so one read right after a line, or after a key tapped behind
    /// it, can still see a press the bridge is letting go of (on a loaded machine it did).
    func buttonsStillHeld(timeout: Double = 3) -> [Int]? {
        poll(timeout: timeout, every: 0.02, { window.pointerState()?.buttonsHeld }, until: { $0 == [] })
    }

    /// The environment of a client on this server, for the X tools a test runs.
    var environment: [String: String] { BridgeProcess.environment(server) }

    /// Runs an X tool (`xinput`, `xdotool`) on this server and waits for its exit status.
    func runTool(_ executable: String, _ arguments: [String]) throws -> Int32? {
        let tool = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
        return tool.waitForExit(timeout: 5)
    }

    /// The id the server gave the input device named `name` (`xinput list --id-only`): for
    /// devices the bridge does not list, such as the XTEST pointer its clicks come from.
    func serverDeviceID(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
        let xinput = try ChildProcess(executable: "/usr/bin/xinput", arguments: ["list", "--id-only", name],
                                      environment: environment)
        #expect(xinput.waitForExit(timeout: 5) == 0, "xinput list --id-only \(name)", sourceLocation: sourceLocation)
        return try #require(Int32(xinput.output.trimmingCharacters(in: .whitespacesAndNewlines)),
                            "no device \(name) on the server: \(xinput.output)\(xinput.errorOutput)", sourceLocation: sourceLocation)
    }
}

/// The press and release events of `button`, in order.
func buttonEvents(_ button: Int32, in events: [RecordedEvent]) -> [RecordedEvent] {
    events.filter { ($0.kind == .buttonPress || $0.kind == .buttonRelease) && $0.detail == button }
}

/// What a suite's fixture starts fresh for each test and stops after it.
protocol SuiteResource: AnyObject {
    /// A fresh one, for one test.
    static func start() throws -> Self
    func stop()
}

/// A suite whose every test has a fresh `Resource` of its own, stopped after the test, pass or
/// fail: Swift Testing makes one instance of a suite a test, and lets go of it after.
class SuiteFixture<Resource: SuiteResource> {
    let resource: Resource

    init() throws {
        resource = try Resource.start()
    }

    init(_ resource: Resource) {
        self.resource = resource
    }

    deinit {
        resource.stop()
    }
}

extension Stage: SuiteResource {
    static func start() throws -> Stage { try Stage() }
}

extension HeadlessXorg: SuiteResource {
    static func start() throws -> HeadlessXorg { try HeadlessXorg() }
}

/// Each test plays on a fresh stage of its own.
class StageSuite: SuiteFixture<Stage> {
    var stage: Stage { resource }
}

/// Each test plays on a fresh stage whose window selects touch events.
class TouchAwareStageSuite: StageSuite {
    override init() throws {
        super.init(try Stage(touchAware: true))
    }
}

/// Each test plays on a fresh stage whose server also has a plain mouse.
class MouseStageSuite: StageSuite {
    override init() throws {
        super.init(try Stage(mouse: true))
    }
}

/// Each test has a fresh headless Xorg of its own, with no window.
class ServerSuite: SuiteFixture<HeadlessXorg> {
    var server: HeadlessXorg { resource }
}
