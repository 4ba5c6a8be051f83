import CX11
import Foundation
import GestureKit
import Testing
import XorgTestSupport
@testable import X11Bridge

/// Two RandR monitors side by side on the headless Xorg (1280×800: LEFT is x 0..<640, RIGHT
/// 640..<1280), made with `xrandr --setmonitor`.
@Suite("Feedback and knobs on every monitor", .requiresXorg, .requiresXrandr, .serialized)
struct MonitorTests {
    static let border = 640
    static let pen = ContactKey(device: 2, contact: 0)

    static func names(_ layout: MonitorLayout) -> [String] { layout.monitors.map(\.name) }

    /// Runs `body` with the feedback overlay on a headless Xorg split into two halves, and a
    /// lister of the overlay's windows; all closed after.
    static func onSplitScreen(_ body: (HeadlessXorg, XConnection, OverlayWindowLister, FeedbackOverlay) throws -> Void) throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        try SplitMonitors.halves(server)
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        defer { connection.close() }
        let screen = try #require(OverlayWindowLister(displayName: server.displayName))
        defer { screen.close() }
        let overlay = try FeedbackOverlay(display: connection.display, screen: connection.screenNumber)
        defer { overlay.close() }
        try body(server, connection, screen, overlay)
    }

    /// Found in review: the root's size came from Xlib's figure at the display's opening, and a
    /// monitor added before the bridge listened left every position scaled to the old width.
    @Test("a monitor added between opening the display and listening (a desktop applying its layout at login): the session knows the new root size")
    func resizedBeforeStart() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        defer { connection.close() }
        let session = InputListener(connection: connection)
        try SplitMonitors.xrandr(["--addmode", "DUMMY1", "1280x800"], server)
        try SplitMonitors.xrandr(["--output", "DUMMY1", "--mode", "1280x800", "--right-of", "DUMMY0"], server)
        try session.start()
        #expect(session.monitors.monitors.count == 2, "the second monitor came: \(session.monitors)")
        #expect(session.screen == ScreenSize(width: 2560, height: 800))
    }

    @Test("an effect near the border between monitors stays inside the monitor under its center")
    func overlayClipsToMonitor() throws {
        try Self.onSplitScreen { _, connection, screen, overlay in
            #expect(Self.names(overlay.monitors) == ["LEFT", "RIGHT"])
            #expect(overlay.monitors.monitors.map(\.frame) == [ScreenRect(x: 0, y: 0, width: 640, height: 800),
                                                               ScreenRect(x: 640, y: 0, width: 640, height: 800)])
            #expect(overlay.monitors.monitors.allSatisfy { $0.dpi.map { abs($0 - 96) < 1 } == true })

            // A ring 5 px left of the border is cut at the border; one 5 px right of it starts there
            // (a frame later: without a compositor a ring is drawn at most 20 times a second).
            overlay.show(.progress(Self.pen, at: Point(x: 635, y: 400), fraction: 0.5), now: 0)
            let left = screen.wait { $0.count == 1 }
            try #require(left.count == 1, "\(left)")
            #expect(left[0].x + left[0].width == Self.border, "\(left)")
            #expect(left[0].x == 635 - ProgressRing.extent && left[0].height == 2 * ProgressRing.extent + 1, "\(left)")
            // By pixels, as a user sees it: the arc shows on the left monitor, not a pixel of it on the right.
            connection.sync()
            let shot = OverlayScreenshot(display: connection.display, root: connection.root, width: 1280, height: 800)
            _ = try shot.save(as: "overlay-two-monitors")
            let arc = (365...435).flatMap { y in (580...700).map { x in (x, y) } }.filter { shot[$0.0, $0.1] == .pulse }
            #expect(arc.contains { $0.0 < Self.border }, "the arc shows left of the border")
            #expect(!arc.contains { $0.0 >= Self.border }, "no arc pixel on the right monitor: \(arc.filter { $0.0 >= Self.border })")

            overlay.show(.progress(Self.pen, at: Point(x: 645, y: 400), fraction: 0.6), now: 0.1)
            let right = screen.wait { $0.count == 1 && $0[0].x >= Self.border }
            try #require(right.count == 1, "\(right)")
            #expect(right[0].x == Self.border && right[0].x + right[0].width == 645 + ProgressRing.extent + 1, "\(right)")
            overlay.show(.progressEnded(Self.pen), now: 0.2)

            // A pulse by the border, on the left.
            overlay.show(.pulse(.overlaid, at: Point(x: 638, y: 100), time: 0.3), now: 0.3)
            let pulse = screen.wait { $0.count == 1 }
            try #require(pulse.count == 1, "\(pulse)")
            #expect(pulse[0].x + pulse[0].width == Self.border && pulse[0].contains(x: 638, y: 100), "\(pulse)")
            connection.sync()
            #expect(connection.takeErrors().isEmpty)
        }
    }

    @Test("when the monitors change, effects from then on are cut to the new layout")
    func overlayFollowsChanges() throws {
        try Self.onSplitScreen { server, connection, screen, overlay in
            // The border moves to 400. RandR replaces no monitor: each goes before it comes back.
            try SplitMonitors.xrandr(["--delmonitor", "RIGHT"], server)
            try SplitMonitors.xrandr(["--delmonitor", "LEFT"], server)
            try SplitMonitors.xrandr(["--setmonitor", "LEFT", SplitMonitors.geometry(x: 0, y: 0, width: 400, height: 800), SplitMonitors.output], server)
            try SplitMonitors.xrandr(["--setmonitor", "RIGHT", SplitMonitors.geometry(x: 400, y: 0, width: 880, height: 800), "none"], server)
            let layout = RandRMonitors(display: connection.display, root: connection.root).read()
            #expect(layout.monitors.map(\.frame) == [ScreenRect(x: 0, y: 0, width: 400, height: 800),
                                                     ScreenRect(x: 400, y: 0, width: 880, height: 800)])
            overlay.screenChanged(connection.screenSize, monitors: layout)
            overlay.show(.progress(Self.pen, at: Point(x: 645, y: 400), fraction: 0.5), now: 0)
            let whole = screen.wait { $0.count == 1 }
            try #require(whole.count == 1, "\(whole)")
            #expect(whole[0].x == 645 - ProgressRing.extent && whole[0].width == 2 * ProgressRing.extent + 1, "no longer cut at 640: \(whole)")
            overlay.show(.progress(Self.pen, at: Point(x: 405, y: 400), fraction: 0.6), now: 0.1)
            let cut = screen.wait { $0.count == 1 && $0[0].x == 400 }
            #expect(cut.map(\.x) == [400], "\(cut)")
        }
    }

    static let config = """
        bindings:
          - name: press
            gesture: deep-press
            devices: [pen]
            feedback: [pulse]
            action: {click: 3}
          - name: corner
            gesture: knob
            devices: [pen]
            center: {monitor: RIGHT, at: [-150, 150]}
            inner-radius: 30
            outer-radius: 120
            step: 30
            clockwise: {scroll: down}
            counterclockwise: {scroll: up}
          - name: elsewhere
            gesture: knob
            devices: [touch]
            center: {monitor: HDMI-9, at: [100, 100]}
            step: 30
            clockwise: {scroll: down}
        """

    static func scrolls(_ bridge: BridgeProcess) -> Int {
        bridge.actions.filter { $0.action == "scroll" }.count
    }

    /// Turns the pen 190° around `center`: six 30° steps.
    static func turn(_ server: HeadlessXorg, around center: PixelPoint) throws {
        let path = KnobPath.points(center: center, radius: 80, fromDegrees: 0, toDegrees: 190)
        try server.pen.down(at: path[0], pressure: 0.2)
        for point in path.dropFirst() { try server.pen.move(to: point) }
        try server.pen.up()
    }

    @Test("run: monitors reported, a missing one warned of, the pulse cut to its monitor, a knob in a monitor's corner that follows it")
    func liveBridge() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        try SplitMonitors.halves(server)
        let screen = try #require(OverlayWindowLister(displayName: server.displayName))
        defer { screen.close() }
        let bridge = try server.bridge(config: Self.config)

        let listening = try #require(bridge.events(.listening).first)
        let monitors = try #require(listening.monitors)
        #expect(monitors.map(\.name) == ["LEFT", "RIGHT"])
        #expect(monitors.map(\.x) == [0, 640])
        #expect(monitors.map(\.width) == [640, 640])
        #expect(monitors.map(\.widthMillimeters) == [169, 169])
        #expect(bridge.waitForEvents(.monitorMissing))
        let missing = bridge.events(.monitorMissing)
        #expect(missing.map(\.binding) == ["elsewhere"])
        #expect(missing.first?.monitor == "HDMI-9")
        #expect(missing.first?.connected == ["LEFT", "RIGHT"])

        // A deep press 3 px left of the border: its pulse stays on LEFT.
        try server.pen.down(at: (637, 400), pressure: 0.1)
        try server.pen.press(to: 0.9)
        let pulse = screen.wait { !$0.isEmpty }
        try server.pen.up()
        try #require(pulse.count == 1, "\(pulse)")
        #expect(pulse[0].x + pulse[0].width == Self.border && pulse[0].contains(x: 637, y: 400), "\(pulse)")
        #expect(screen.wait(timeout: 5) { $0.isEmpty }.isEmpty)

        // The knob sits 150 px in from RIGHT's top-right corner.
        try Self.turn(server, around: (1130, 150))
        #expect(bridge.waitForLines { _ in Self.scrolls(bridge) >= 6 }, "\(bridge.log)")
        #expect(Self.scrolls(bridge) == 6)

        // RIGHT becomes the bottom half of the right side: the knob moves down with it.
        try SplitMonitors.xrandr(["--delmonitor", "RIGHT"], server)
        try SplitMonitors.xrandr(["--setmonitor", "RIGHT", SplitMonitors.geometry(x: 640, y: 400, width: 640, height: 400), "none"], server)
        #expect(bridge.waitForEvents(.monitorsChanged, count: 2), "\(bridge.log)")
        let changes = bridge.events(.monitorsChanged).map { ($0.monitors ?? []).map(\.name) }
        #expect(changes == [["LEFT"], ["LEFT", "RIGHT"]])
        let changed = try #require(bridge.events(.monitorsChanged).last?.monitors)
        #expect(changed.map(\.y) == [0, 400])
        // RIGHT was gone between the two requests; HDMI-9, still missing, is not told again.
        #expect(bridge.events(.monitorMissing).map(\.monitor) == ["HDMI-9", "RIGHT"])
        try Self.turn(server, around: (1130, 550))
        #expect(bridge.waitForLines { _ in Self.scrolls(bridge) >= 12 }, "\(bridge.log)")
        #expect(Self.scrolls(bridge) == 12)
    }

    /// Xwayland names its monitors XWAYLAND0, XWAYLAND1...: a Wayland session the environment
    /// does not tell (ssh, sudo, a service) shows there, and an X client there sees no other
    /// application's input.
    @Test("on a server whose monitor is Xwayland's, run refuses with the status the user unit does not restart on, and doctor names it")
    func xwaylandRefused() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        try SplitMonitors.xrandr(["--setmonitor", "XWAYLAND0", SplitMonitors.geometry(x: 0, y: 0, width: server.width, height: server.height),
                                  SplitMonitors.output], server)
        // The stimulus: the monitor is there, as the server reports it (to a plain Xlib client:
        // XConnection.open refuses the server now).
        let display = try #require(XOpenDisplay(server.displayName))
        #expect(Self.names(RandRMonitors(display: display, root: XDefaultRootWindow(display)).read()) == ["XWAYLAND0"])
        #expect(throws: BridgeSetupError.self) { try XConnection.open(name: server.displayName, requirements: .init(xtest: false)) }
        XCloseDisplay(display)

        let run = try BridgeProcess(["run", "--dry-run"], server: server, ready: .immediately)
        #expect(run.child.waitForExit(timeout: 10) == BridgeSetupError.wrongSessionStatus)
        #expect(run.child.errorOutput.contains("is Xwayland") && run.child.errorOutput.contains("its monitor is XWAYLAND0"), "\(run.child.errorOutput)")
        let doctor = try BridgeProcess(["doctor", "--json"], server: server, ready: .immediately)
        #expect(doctor.child.waitForExit(timeout: 10) == 1)
        let problems = try doctor.printed(DoctorFindingLine.self).filter { $0.status == .problem }
        #expect(problems.map(\.check) == [.session] && problems.first?.message.contains("Xwayland") == true, "\(doctor.child.output)")
    }

    /// Found in review of a Wayland user's week: an Xwayland before 23.1 (Debian 12's) whose
    /// compositor has no output yet names no monitor, and passed for an X11 session; its input
    /// devices are named for it.
    @Test("on a server with an input device named as Xwayland's, and no monitor of its: run refuses with the status the user unit does not restart on")
    func xwaylandDevicesRefused() throws {
        let server = try HeadlessXorg(mouse: true, mouseName: "xwayland-pointer:13")
        defer { server.stop() }
        XlibThreads.initialize()
        #expect(throws: BridgeSetupError.xwaylandServer(display: server.displayName, sign: "its input device xwayland-pointer:13 is Xwayland's")) {
            try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        }
        let run = try BridgeProcess(["run", "--dry-run"], server: server, ready: .immediately)
        #expect(run.child.waitForExit(timeout: 10) == BridgeSetupError.wrongSessionStatus, "\(run.child.errorOutput)")
    }

    /// What `doctor --json` on `server`, finding nothing wrong, says of the touchscreen's mapping.
    static func doctorMapping(_ server: HeadlessXorg, sourceLocation: SourceLocation = #_sourceLocation) throws -> [DoctorFindingLine] {
        let doctor = try BridgeProcess(["doctor", "--json"], server: server, ready: .immediately)
        #expect(doctor.child.waitForExit(timeout: 10) == 0, "\(doctor.child.output)", sourceLocation: sourceLocation)
        return try doctor.printed(DoctorFindingLine.self).filter { $0.check == .mapping }
    }

    /// The touchscreen's Coordinate Transformation Matrix set to `matrix`, row by row, as xinput sets it.
    static func mapTouchscreen(_ matrix: [String], on server: HeadlessXorg, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xinput = try ChildProcess(executable: "/usr/bin/xinput",
                                      arguments: ["set-prop", VirtualTouchscreen.deviceName, "Coordinate Transformation Matrix"] + matrix,
                                      environment: BridgeProcess.environment(server))
        #expect(xinput.waitForExit(timeout: 5) == 0, sourceLocation: sourceLocation)
    }

    @Test("doctor: a touchscreen that spans two monitors is named with the command that maps it to its own; mapped, it is not")
    func doctorNamesUnmappedTouchscreen() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        func doctorLines() throws -> [DoctorFindingLine] {
            let mapping = try Self.doctorMapping(server)
            #expect(mapping.allSatisfy { $0.device == VirtualTouchscreen.deviceName && $0.message.contains("xinput map-to-output") }, "\(mapping)")
            return mapping
        }
        #expect(try doctorLines().isEmpty, "one monitor: nothing to map")
        try SplitMonitors.halves(server)
        #expect(try doctorLines().count == 1)
        try Self.mapTouchscreen(["0.5", "0", "0", "0", "1", "0", "0", "0", "1"], on: server)
        #expect(try doctorLines().isEmpty, "mapped to the left monitor")
    }
}

extension MonitorTests {
    /// Found in review of a classroom: mirrored for a projector (its smaller picture inside the
    /// laptop panel's), doctor told a touchscreen covering the panel to map itself, and only
    /// mapping it to the projector silenced it, which squeezed every touch into that picture;
    /// a touchscreen mapped beside a projector since unplugged was said nothing of, its touches
    /// landing short.
    @Test("doctor: mirrored monitors, a touchscreen covering the panel is not told to map itself; mapped to an area no monitor shows now, it is told to map again")
    func doctorMirroredAndStaleMapping() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        // The panel shows the whole screen, the projector the top-left 1024x768 of it.
        try SplitMonitors.xrandr(["--setmonitor", "PANEL", SplitMonitors.geometry(x: 0, y: 0, width: server.width, height: server.height),
                                  SplitMonitors.output], server)
        try SplitMonitors.xrandr(["--setmonitor", "PROJECTOR", SplitMonitors.geometry(x: 0, y: 0, width: 1024, height: 768), "none"], server)
        #expect(try Self.doctorMapping(server).isEmpty, "the touchscreen covers the panel, as mirrored")
        // Mapped to the left half of the screen, as beside a projector, which is gone now.
        try SplitMonitors.xrandr(["--delmonitor", "PROJECTOR"], server)
        try Self.mapTouchscreen(["0.5", "0", "0", "0", "1", "0", "0", "0", "1"], on: server)
        let stale = try Self.doctorMapping(server)
        #expect(stale.count == 1 && stale.allSatisfy { $0.device == VirtualTouchscreen.deviceName && $0.message.contains("xinput map-to-output") },
                "\(stale)")
        // Only calibrated (a small offset and scale, as a kiosk's calibration tool sets): its
        // own monitor still, nothing to map again (found in review of the day's diff).
        try Self.mapTouchscreen(["1.02", "0", "0.01", "0", "1.02", "0.005", "0", "0", "1"], on: server)
        #expect(try Self.doctorMapping(server).isEmpty)
    }
}

/// Two real outputs of different heights side by side (DUMMY0 640×480, DUMMY1 640×360 to its
/// right, on a 1280×800 root): part of the root lies below the shorter, shown by no monitor.
@Suite("A pen over the part of the root no monitor shows", .requiresXorg, .requiresXrandr, .serialized)
final class MonitorDeadZoneTests: StageSuite {
    /// Found in review of a HiDPI desktop: a tablet spanning a tall monitor and a shorter one
    /// beside it (GNOME leaves a tablet with no screen of its own over all monitors) maps part of
    /// itself below the shorter one, where no monitor shows anything. X holds the pointer on the
    /// monitor it came from; the bridge reported the click where no pointer was, and drew no ring
    /// nor pulse (cut to the nearest monitor, nothing was left of them).
    @Test("a pen's deep press below the shorter of two monitors: the ring, the pulse and the reported click are where X holds the pointer")
    func deepPressBelowShorterMonitor() throws {
        let server = stage.server
        try SplitMonitors.xrandr(["--fb", "1280x800", "--output", "DUMMY0", "--mode", "640x480", "--pos", "0x0"], server)
        try SplitMonitors.xrandr(["--addmode", "DUMMY1", "640x360"], server)
        try SplitMonitors.xrandr(["--fb", "1280x800", "--output", "DUMMY1", "--mode", "640x360", "--pos", "640x0"], server)
        let screen = try #require(OverlayWindowLister(displayName: server.displayName))
        defer { screen.close() }
        let bridge = try stage.bridge()
        try stage.pen.down(at: (900, 600), pressure: 0.1)
        try stage.pen.press(to: 0.4)
        let ring = screen.wait { !$0.isEmpty }
        try stage.pen.press(to: 0.9)
        #expect(bridge.waitForLines { !$0.actions.isEmpty }, "\(bridge.lines)")
        let pulse = screen.wait { !$0.isEmpty }
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        let press = try #require(buttonEvents(3, in: try stage.eventsUntilKeyTapped()).first)
        #expect(press.rootX == 900 && press.rootY == 359, "where X holds the pointer: \(press)")
        let action = try #require(bridge.actions.first)
        #expect(action.x == 900 && action.y == 359, "\(action)")
        #expect(ring.contains { $0.contains(x: 900, y: 359) }, "the ring: \(ring)")
        #expect(pulse.contains { $0.contains(x: 900, y: 359) }, "the pulse: \(pulse)")
    }
}
