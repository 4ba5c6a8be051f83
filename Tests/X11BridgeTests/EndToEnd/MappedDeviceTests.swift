import Foundation
import Testing
import XorgTestSupport

/// Found in review: the built-in volume knob sat in the top-right corner of the whole screen,
/// so a laptop's touchscreen mapped to its own monitor, with another monitor to its right, could
/// not reach it. A device mapped to part of the screen finds its knob in that part's corner.
@Suite("A knob where a device mapped to part of the screen reaches", .requiresXorg, .serialized)
final class MappedDeviceTests: StageSuite {
    enum Mapped: String, CaseIterable, CustomTestStringConvertible {
        /// Mapped before the bridge starts: read as it lists the devices.
        case beforeStart
        /// Mapped while it runs, as a desktop maps a touchscreen just after it comes: its
        /// property change tells the bridge.
        case whileRunning
        var testDescription: String { rawValue }
    }

    /// The pen's surface on the left half of the screen (a laptop's panel with a monitor to its right).
    static let leftHalf = ["0.5", "0", "0", "0", "1", "0", "0", "0", "1"]

    /// Where to put the pen for the screen point `point` while it is mapped to the left half:
    /// the virtual pen takes positions as if it spanned the whole screen.
    static func onLeftHalf(_ point: PixelPoint) -> PixelPoint {
        (point.x * 2, point.y)
    }

    @Test("the default volume knob turns in the top-right corner of the part of the screen the pen is mapped to",
          arguments: Mapped.allCases)
    func volumeKnobOnMappedPen(mapped: Mapped) throws {
        let width = Double(stage.server.width)
        func map(_ matrix: [String]) throws -> Int32? {
            try stage.runTool("/usr/bin/xinput", ["set-prop", VirtualPen.deviceName, "Coordinate Transformation Matrix"] + matrix)
        }
        defer { _ = try? map(["1", "0", "0", "0", "1", "0", "0", "0", "1"]) }
        if mapped == .beforeStart { #expect(try map(Self.leftHalf) == 0) }
        let bridge = try stage.bridge()
        if mapped == .whileRunning {
            #expect(try map(Self.leftHalf) == 0)
            #expect(bridge.waitForLines { $0.events(.deviceChanged).contains { $0.device?.name == VirtualPen.deviceName } },
                    "the bridge never heard the pen mapped: \(bridge.lines)")
        }

        // The stimulus lands where it is meant to: a tap meant for (200, 300) on the screen.
        try stage.pen.down(at: Self.onLeftHalf((200, 300)), pressure: 0.2)
        try stage.pen.up()
        let tap = buttonEvents(1, in: stage.window.events { buttonEvents(1, in: $0).count >= 2 })
        #expect(tap.map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(tap.first.map { abs($0.rootX - 200) < 1 && abs($0.rootY - 300) < 1 } == true, "the pen is not mapped as meant: \(tap)")
        stage.window.drain()

        // The ring around the point 150 px in from the left half's right edge and the top.
        let center: PixelPoint = (width / 2 - 150, 150)
        let path = KnobPath.points(center: center, radius: 75, fromDegrees: 0, toDegrees: 95)
            + KnobPath.points(center: center, radius: 75, fromDegrees: 95, toDegrees: 35).dropFirst()
        try stage.pen.down(at: Self.onLeftHalf(path[0]), pressure: 0.2)
        for point in path.dropFirst() { try stage.pen.move(to: Self.onLeftHalf(point)) }
        try stage.pen.up()

        // 95° turned (past the 30° activation), 15° a step: six up, 5° carried; 60° back: three down.
        func keys(_ events: [RecordedEvent]) -> [String] {
            events.filter { $0.kind == .keyPress }.compactMap(\.keysymName)
        }
        let pressed = keys(stage.window.events(waitingUpTo: 5) { keys($0).count >= 9 })
        #expect(pressed == Array(repeating: "XF86AudioRaiseVolume", count: 6) + Array(repeating: "XF86AudioLowerVolume", count: 3),
                "\(bridge.lines)")
        #expect(buttonEvents(1, in: stage.window.recordedEvents).isEmpty, "the turn reached the window as a drag")
    }
}
