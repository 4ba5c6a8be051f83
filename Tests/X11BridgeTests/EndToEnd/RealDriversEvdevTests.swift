import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// xf86-input-evdev on an emulated pen tablet and a multitouch screen with ABS_MT_PRESSURE:
/// the kernel's ranges as they are ("Abs Pressure" 0...1023, "Abs MT Pressure" 0...255), and a
/// touch update that carries only the valuators that changed.
@Suite("Real drivers: xf86-input-evdev", .requiresXorg, .serialized)
struct RealDriversEvdevTests {
    @Test("devices --json and doctor: a TABLET pen 0..1023 and a direct TOUCHSCREEN 0..255, both evdev")
    func devicesAndDoctor() throws {
        let stage = try RealDriverStage(.evdev)
        defer { stage.stop() }
        let devices = try stage.listedDevices()
        let pen = devices[stage.server.penDeviceName]
        let touch = devices[stage.server.touchDeviceName ?? ""]
        #expect(pen?.kind == "pen" && pen?.driver == "evdev" && pen?.type == "TABLET",
                "\(devices)")
        #expect(RealDriverChecks.pressureRange(pen).map { [$0.min, $0.max] } == [0, 1023], "\(devices)")
        #expect(touch?.kind == "touch" && touch?.driver == "evdev"
                    && touch?.type == "TOUCHSCREEN" && touch?.touchMode == "direct", "\(devices)")
        #expect(RealDriverChecks.pressureRange(touch).map { [$0.min, $0.max] } == [0, 255], "\(devices)")
        #expect(touch?.touches == 10, "\(devices)")
        try RealDriverChecks.expectDoctor(stage, pressures: [stage.server.penDeviceName: "0..1023",
                                                             stage.server.touchDeviceName ?? "": "0..255"], driver: .evdev)
    }

    @Test("the touchscreen's deep press right-clicks with no left press; a light tap is a whole left click",
          arguments: [false, true])
    func touchDeepPress(touchAware: Bool) throws {
        let stage = try RealDriverStage(.evdev, touchAware: touchAware)
        defer { stage.stop() }
        let bridge = try stage.bridge()
        let touch = try stage.touch()
        for (slot, point) in [(0, (500.0, 300.0)), (1, (520.0, 340.0))] {
            stage.window.drain()
            try touch.begin(slot: slot, at: point, pressure: 0.1)
            for force in [0.3, 0.5, 0.7, 0.9] {
                usleep(15_000)
                // Only the pressure changes: evdev sends just that valuator in the update.
                try touch.update(slot: slot, pressure: force)
            }
            #expect(stage.window.waitForEvents(upTo: 3) { buttonEvents(3, in: $0).count >= 2 })
            try touch.end(slot: slot)
            let events = stage.window.events(arrivingWithin: 0.3)
            stage.window.drain()
            #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.lines)")
            #expect(buttonEvents(1, in: events).isEmpty, "no left press: \(events)")
            #expect(events.filter(\.kind.isTouch).isEmpty, "the touch never begins for the window: \(events)")
        }
        let touchID = try bridge.deviceID(stage.server.touchDeviceName ?? "")
        #expect(bridge.gestures.contains { $0.recognizer == .deepPress && $0.device == touchID })

        // Light, the touch is handed back whole.
        stage.window.drain()
        try touch.tap(at: (300, 600), pressure: 0.3)
        let events = stage.window.events(waitingUpTo: 3) { events in
            touchAware ? events.contains { $0.kind == .touchEnd } : buttonEvents(1, in: events).count >= 2
        }
        if touchAware {
            #expect(events.first(where: \.kind.isTouch)?.kind == .touchBegin && events.last(where: \.kind.isTouch)?.kind == .touchEnd,
                    "\(events)")
        } else {
            #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        }
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        RealDriverChecks.expectNoFault(bridge)
    }

    /// Found in review: a pressed relative device follows its own deltas (the pointer stands
    /// still while the bridge holds the press), but a device whose axes have a range moves in
    /// its own units, which the server scales onto the screen: taken as pixels, a tablet set to
    /// relative mode ran off to the screen's corner at its first move, in a recording too.
    @Test("a tablet set to relative mode: a recorded stroke goes where the pointer goes")
    func relativeModeStroke() throws {
        let stage = try RealDriverStage(.evdev)
        defer { stage.stop() }
        let id = try stage.serverDeviceID(stage.server.penDeviceName)
        let setMode = try ChildProcess(executable: "/usr/bin/xinput", arguments: ["set-mode", "\(id)", "RELATIVE"],
                                       environment: BridgeProcess.environment(stage.server.displayName))
        #expect(setMode.waitForExit(timeout: 5) == 0)
        // The stimulus: the bridge takes the pen for a mouse now.
        #expect(try stage.listedDevices()[stage.server.penDeviceName]?.kind == "mouse")
        let recording = try BridgeProcess(["record"], displayName: stage.server.displayName, ready: .says("recording"))
        try stage.pen.hover(to: (600, 400))
        try stage.pen.down(at: (600, 400), pressure: 0.3)
        for step in 1...30 { try stage.pen.move(to: (600 + 2 * Double(step), 400 - Double(step)), pressure: nil) }
        let pointer = try #require(stage.window.pointerState())
        try stage.pen.up()
        #expect(recording.stop(with: SIGINT) == 0)
        let trace = try TraceReader.parse(recording.child.output, file: "recorded")
        let stroke = trace.events.filter { $0.device == Int(id) }
        let last = try #require(stroke.last { $0.phase == .move }, "\(stroke)")
        #expect(abs(last.position.x - Double(pointer.rootX)) <= 2 && abs(last.position.y - Double(pointer.rootY)) <= 2,
                "recorded \(last.position), the pointer at \(pointer.rootX),\(pointer.rootY): \(stroke.prefix(6).map { "\($0.phase) \($0.position)" })")
        #expect(stroke.last?.phase == .end && stroke.last?.position == last.position, "\(stroke.suffix(2))")
    }
}
