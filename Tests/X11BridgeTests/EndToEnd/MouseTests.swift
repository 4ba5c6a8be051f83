import Foundation
import Testing
import XorgTestSupport

/// A plain mouse beside the pen, on the one master pointer they share. No gesture listens to a
/// mouse, but while a pen binding owns presses, the mouse's presses meet the same grab: each
/// reaches the application whole, and a mouse clicked while the pen is down never lets go of
/// the pen's held press. (X itself drops a press of a button the master already has down: a
/// mouse clicked while the pen is down clicks nothing, with or without the bridge.)
@Suite("A plain mouse beside the pen", .requiresXorg, .serialized)
final class MouseTests: MouseStageSuite {
    var mouse: VirtualMouse {
        get throws { try #require(stage.server.mouse, "the stage's server has a mouse") }
    }

    /// The window's button-1 presses and releases and its motions from `source`, in order.
    static func stroke(_ events: [RecordedEvent], from source: Int) -> [RecordedEvent] {
        events.filter { Int($0.sourceID) == source && ($0.kind == .motion || buttonEvents(1, in: [$0]).count == 1) }
    }

    /// One mouse click, then what the window got of button 1 once both halves are there.
    func clickMouse() throws -> [RecordedEvent] {
        stage.window.drain()
        try mouse.click()
        return buttonEvents(1, in: stage.window.events { buttonEvents(1, in: $0).count >= 2 })
    }

    @Test("with the default config, the mouse's clicks and a drag reach the window whole and in order")
    func clicksAndDrag() throws {
        let bridge = try stage.bridge(["--verbose"])
        // The pen's deep press holds every button-1 press back, the mouse's too.
        #expect(bridge.ownership { $0.ownership == .holding && $0.input == .press } != nil, "\(bridge.lines)")
        let mouseID = try bridge.deviceID(VirtualMouse.deviceName)
        let mouse = try mouse

        try mouse.move(by: 10, 0)
        let moved = stage.window.events { !Self.stroke($0, from: mouseID).isEmpty }
        #expect(!Self.stroke(moved, from: mouseID).isEmpty, "the mouse's motion reaches the window: \(moved)")

        for _ in 0..<3 {
            let click = try clickMouse()
            #expect(click.map(\.kind) == [.buttonPress, .buttonRelease], "\(click)\n\(bridge.lines)")
            #expect(click.allSatisfy { Int($0.sourceID) == mouseID }, "\(click)")
        }

        stage.window.drain()
        try mouse.press()
        for _ in 0..<10 { try mouse.move(by: 5, 0) }
        try mouse.release()
        let drag = Self.stroke(stage.window.events { buttonEvents(1, in: $0).count >= 2 }, from: mouseID)
        #expect(drag.first?.kind == .buttonPress && drag.last?.kind == .buttonRelease, "\(drag)")
        #expect(drag.dropFirst().dropLast().count == 10 && drag.dropFirst().dropLast().allSatisfy { $0.kind == .motion },
                "ten motions between the press and the release: \(drag)")
        #expect(drag.last.map { $0.rootX - (drag.first?.rootX ?? 0) } == 50, "\(drag)")

        // Each press was held back and handed straight on: no gesture listens to a mouse.
        #expect(bridge.waitForLines { $0.ownerships.filter { $0.device == mouseID && $0.ownership == .replayed }.count == 4 },
                "\(bridge.lines)")
        #expect(bridge.ownerships.filter { $0.device == mouseID }.allSatisfy { $0.ownership == .replayed && $0.reason == "unbound" },
                "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.ownerships.filter { $0.ownership == .bug }.isEmpty, "\(bridge.lines)")
    }
}
