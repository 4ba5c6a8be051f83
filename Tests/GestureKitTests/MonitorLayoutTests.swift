import Foundation
import Testing
@testable import GestureKit

@Suite("Monitors: where feedback may show, and knobs centered on one")
struct MonitorLayoutTests {
    static let root = ScreenRect(x: 0, y: 0, width: 2560, height: 1080)
    /// Two monitors side by side on one 2560×1080 root, the right one primary.
    static let left = Monitor(name: "LEFT", frame: ScreenRect(x: 0, y: 0, width: 1280, height: 1024),
                              widthMillimeters: 339, heightMillimeters: 271)
    static let right = Monitor(name: "HDMI-1", frame: ScreenRect(x: 1280, y: 0, width: 1280, height: 1080),
                               widthMillimeters: 0, heightMillimeters: 0, isPrimary: true)
    static let layout = MonitorLayout([left, right])

    /// A monitor where only its place matters: 96 dpi.
    static func monitor(_ name: String, _ frame: ScreenRect, primary: Bool = false) -> Monitor {
        Monitor(name: name, frame: frame, widthMillimeters: frame.width * 254 / 960, heightMillimeters: frame.height * 254 / 960,
                isPrimary: primary)
    }

    @Test("the monitor containing a point; its left and top edges belong to it, the right and bottom to the next")
    func containing() {
        #expect(Self.layout.monitor(at: Point(x: 1279.9, y: 500))?.name == "LEFT")
        #expect(Self.layout.monitor(at: Point(x: 1280, y: 500))?.name == "HDMI-1")
        #expect(Self.layout.monitor(at: Point(x: 0, y: 0))?.name == "LEFT")
        #expect(Self.layout.primary?.name == "HDMI-1")
        #expect(Self.layout.monitor(named: "HDMI-1") == Self.right)
        #expect(Self.layout.monitor(named: "DP-2") == nil)
    }

    @Test("a point on no monitor belongs to the nearest: the gap under the shorter one, and off the root")
    func nearest() {
        // Under LEFT (which ends at 1024) but nearer to it than to HDMI-1.
        #expect(Self.layout.monitor(at: Point(x: 600, y: 1050))?.name == "LEFT")
        // In the same gap, a few pixels from HDMI-1's edge.
        #expect(Self.layout.monitor(at: Point(x: 1275, y: 1070))?.name == "HDMI-1")
        #expect(Self.layout.monitor(at: Point(x: -40, y: 300))?.name == "LEFT")
        #expect(Self.layout.monitor(at: Point(x: 9000, y: -5))?.name == "HDMI-1")
        #expect(MonitorLayout.none.monitor(at: Point(x: 1, y: 1)) == nil)
    }

    @Test("mirrored monitors: the primary one shows the point")
    func mirrored() {
        let laptop = Self.monitor("eDP-1", ScreenRect(x: 0, y: 0, width: 1920, height: 1080))
        let projector = Self.monitor("HDMI-1", ScreenRect(x: 0, y: 0, width: 1920, height: 1080), primary: true)
        #expect(MonitorLayout([laptop, projector]).monitor(at: Point(x: 10, y: 10))?.name == "HDMI-1")
        #expect(MonitorLayout([laptop]).monitor(at: Point(x: 10, y: 10))?.name == "eDP-1")
    }

    @Test("the visible area is the monitor under the point, cut to the root; the root when no monitor is known")
    func visibleArea() {
        #expect(Self.layout.visibleArea(at: Point(x: 1275, y: 400), root: Self.root) == Self.left.frame)
        #expect(Self.layout.visibleArea(at: Point(x: 1285, y: 400), root: Self.root) == Self.right.frame)
        #expect(MonitorLayout.none.visibleArea(at: Point(x: 1275, y: 400), root: Self.root) == Self.root)
        // A monitor reaching past the root is cut to it; one wholly outside gives the root.
        let overhanging = MonitorLayout([Monitor(name: "BIG", frame: ScreenRect(x: 2000, y: 0, width: 1000, height: 2000),
                                                 widthMillimeters: 0, heightMillimeters: 0)])
        #expect(overhanging.visibleArea(at: Point(x: 2100, y: 10), root: Self.root) == ScreenRect(x: 2000, y: 0, width: 560, height: 1080))
        let outside = MonitorLayout([Monitor(name: "FAR", frame: ScreenRect(x: 5000, y: 0, width: 100, height: 100),
                                             widthMillimeters: 0, heightMillimeters: 0)])
        #expect(outside.visibleArea(at: Point(x: 10, y: 10), root: Self.root) == Self.root)
    }

    @Test("an effect's square near the border between two monitors stays on the one under its center")
    func squareNearTheBorder() {
        let square = ScreenRect(x: 1270 - 40, y: 500 - 40, width: 81, height: 81)
        let area = Self.layout.visibleArea(at: Point(x: 1270, y: 500), root: Self.root)
        #expect(square.intersection(area) == ScreenRect(x: 1230, y: 460, width: 50, height: 81))
    }

    @Test("physical DPI from the size in millimetres; none when the monitor reports no size")
    func dpi() throws {
        let horizontal = try #require(Self.left.horizontalDPI)
        let vertical = try #require(Self.left.verticalDPI)
        #expect(abs(horizontal - 1280 * 25.4 / 339) < 1e-9)
        #expect(abs(vertical - 1024 * 25.4 / 271) < 1e-9)
        #expect(Self.left.dpi.map { abs($0 - (horizontal * vertical).squareRoot()) < 1e-9 } == true)
        #expect(Self.right.dpi == nil)
        // Some drivers report 1×1 mm or 0 in one direction.
        let placeholder = Monitor(name: "X", frame: ScreenRect(x: 0, y: 0, width: 800, height: 600), widthMillimeters: 1, heightMillimeters: 1)
        #expect(placeholder.dpi == nil)
        let oneWay = Monitor(name: "Y", frame: ScreenRect(x: 0, y: 0, width: 960, height: 600), widthMillimeters: 254, heightMillimeters: 0)
        #expect(oneWay.dpi == 96)
    }

    /// Found in review: a portrait monitor (RandR turns its pixels, not its millimetres) came
    /// out 17 % denser than the same model upright, and a projector whose EDID gives 160×90
    /// mm (an aspect ratio) at 305 DPI, its feedback four times too large.
    @Test("a monitor turned on its side has the DPI it has upright; an aspect ratio in millimetres is no size")
    func rotatedAndAspect() throws {
        let upright = Monitor(name: "A", frame: ScreenRect(x: 0, y: 0, width: 1920, height: 1080), widthMillimeters: 598, heightMillimeters: 336)
        let turned = Monitor(name: "B", frame: ScreenRect(x: 0, y: 0, width: 1080, height: 1920), widthMillimeters: 598, heightMillimeters: 336)
        let uprightDPI = try #require(upright.dpi)
        #expect(abs(try #require(turned.dpi) - uprightDPI) < 1e-9)
        #expect((80...84).contains(uprightDPI), "\(uprightDPI)")
        let projector = Monitor(name: "C", frame: ScreenRect(x: 0, y: 0, width: 1920, height: 1080), widthMillimeters: 160, heightMillimeters: 90)
        #expect(projector.dpi == nil)
    }

    // MARK: Knobs on a monitor

    static func knob(monitor: String?) -> KnobSettings {
        KnobSettings(centerX: ScreenCoordinate(-150), centerY: ScreenCoordinate(150), monitor: monitor, innerRadius: 30, outerRadius: 120)
    }

    @Test("a knob on a monitor counts from that monitor's corners; on a missing one, from the root's")
    func knobCenter() {
        let screen = ScreenSize(width: 2560, height: 1080)
        #expect(Self.knob(monitor: "LEFT").resolve(screen: screen, monitors: Self.layout).center == Point(x: 1130, y: 150))
        let bottomRight = KnobSettings(centerX: ScreenCoordinate(-100), centerY: ScreenCoordinate(-100), monitor: "LEFT",
                                       innerRadius: 0, outerRadius: 50)
        #expect(bottomRight.resolve(screen: screen, monitors: Self.layout).center == Point(x: 1180, y: 924))
        #expect(Self.knob(monitor: "HDMI-1").resolve(screen: screen, monitors: Self.layout).center == Point(x: 2410, y: 150))
        #expect(Self.knob(monitor: "DP-2").resolve(screen: screen, monitors: Self.layout).center == Point(x: 2410, y: 150))
        #expect(Self.knob(monitor: "LEFT").resolve(screen: screen).center == Point(x: 2410, y: 150))
        #expect(Self.knob(monitor: "LEFT").missingMonitor(in: Self.layout) == nil)
        #expect(Self.knob(monitor: "DP-2").missingMonitor(in: Self.layout) == "DP-2")
        #expect(Self.knob(monitor: nil).missingMonitor(in: .none) == nil)
    }

    @Test("a knob counted from the root's corners that lands on no monitor counts from the nearest monitor's (a laptop below a narrower monitor)")
    func knobCenterInTheDark() {
        // A 1920×1080 monitor centred above a 2560×1600 laptop panel: the root's top-right
        // corner, (2560, 0), is on neither; the one above is nearer.
        let above = Self.monitor("HDMI-1", ScreenRect(x: 320, y: 0, width: 1920, height: 1080))
        let panel = Self.monitor("eDP-1", ScreenRect(x: 0, y: 1080, width: 2560, height: 1600), primary: true)
        let screen = ScreenSize(width: 2560, height: 2680)
        #expect(Self.knob(monitor: nil).resolve(screen: screen, monitors: MonitorLayout([above, panel])).center == Point(x: 2090, y: 150))
        // A primary monitor on the left, the other lower on the right: its own top-right corner.
        let left = Self.monitor("eDP-1", ScreenRect(x: 0, y: 0, width: 1920, height: 1080), primary: true)
        let lower = Self.monitor("HDMI-1", ScreenRect(x: 1920, y: 400, width: 1280, height: 1024))
        #expect(Self.knob(monitor: nil).resolve(screen: ScreenSize(width: 3200, height: 1424), monitors: MonitorLayout([left, lower])).center
                    == Point(x: 3050, y: 550))
        // On a monitor, the root's corner stays: side by side, the right one's top-right.
        #expect(Self.knob(monitor: nil).resolve(screen: ScreenSize(width: 2560, height: 1080), monitors: Self.layout).center == Point(x: 2410, y: 150))
    }

    /// Found in review: kept where the root's corner put it, the knob's ring ran off the top of
    /// a right-hand monitor set lower to line up the bezels.
    @Test("a right-hand monitor set 100 px lower: the default knob is 150 px in from its own top-right corner, its whole ring on it")
    func knobOnALoweredMonitor() {
        let left = Self.monitor("DP-1", ScreenRect(x: 0, y: 0, width: 1920, height: 1080), primary: true)
        let right = Self.monitor("HDMI-1", ScreenRect(x: 1920, y: 100, width: 1920, height: 1080))
        let resolved = Self.knob(monitor: nil).resolve(screen: ScreenSize(width: 3840, height: 1180), monitors: MonitorLayout([left, right]))
        #expect(resolved.center == Point(x: 3690, y: 250))
        // A knob placed where its ring cannot fit on its monitor either way stays where it was put.
        let small = Self.monitor("HDMI-1", ScreenRect(x: 1920, y: 100, width: 200, height: 200))
        let kept = Self.knob(monitor: nil).resolve(screen: ScreenSize(width: 2120, height: 1080), monitors: MonitorLayout([left, small]))
        #expect(kept.center == Point(x: 1970, y: 150))
    }

    /// Found in review: where mirrored monitors overlap, the primary's frame cut the feedback,
    /// though the larger one showed all of it.
    @Test("mirrored for a presentation (a 1024x768 projector primary, on a 1280x800 laptop): feedback at (1000, 700) is not cut at the projector's edge")
    func mirroredMonitors() {
        let projector = Self.monitor("DUMMY1", ScreenRect(x: 0, y: 0, width: 1024, height: 768), primary: true)
        let laptop = Self.monitor("DUMMY0", ScreenRect(x: 0, y: 0, width: 1280, height: 800))
        let root = ScreenRect(x: 0, y: 0, width: 1280, height: 800)
        #expect(MonitorLayout([projector, laptop]).visibleArea(at: Point(x: 1000, y: 700), root: root) == root)
        #expect(MonitorLayout([laptop, projector]).visibleArea(at: Point(x: 1000, y: 700), root: root) == root)
        // A knob whose ring fits on the laptop stays where it was put, whichever is listed first.
        let knob = KnobSettings(centerX: ScreenCoordinate(-300), centerY: ScreenCoordinate(-150), innerRadius: 30, outerRadius: 100)
        let screen = ScreenSize(width: 1280, height: 800)
        #expect(knob.resolve(screen: screen, monitors: MonitorLayout([projector, laptop])).center == Point(x: 980, y: 650))
        #expect(knob.resolve(screen: screen, monitors: MonitorLayout([laptop, projector])).center == Point(x: 980, y: 650))
    }

    @Test("a config lists its knobs whose monitor is missing")
    func missingMonitors() {
        let bindings = BindingSet(bindings: [
            Binding(name: "a", recognizer: .knob(Self.knob(monitor: "LEFT"))),
            Binding(name: "b", recognizer: .knob(Self.knob(monitor: "DP-2"))),
            Binding(name: "c", recognizer: .knob(Self.knob(monitor: nil))),
            Binding(name: "d", recognizer: .longPress(.init())),
        ])
        let missing = bindings.missingMonitors(in: Self.layout)
        #expect(missing.map(\.binding) == ["b"])
        #expect(missing.map(\.monitor) == ["DP-2"])
        #expect(bindings.missingMonitors(in: .none).map(\.binding) == ["a", "b"])
    }

    @Test("the engine turns a knob in the corner of the monitor it names; without that monitor, in the root's corner",
          arguments: [(MonitorLayoutTests.layout, Point(x: 1130, y: 150)), (MonitorLayout.none, Point(x: 2410, y: 150))])
    func engineKnobOnMonitor(monitors: MonitorLayout, center: Point) {
        let binding = Binding(name: "volume", recognizer: .knob(Self.knob(monitor: "LEFT")),
                              steps: StepActions(step: 15, increase: [.scroll(.down, steps: 1)], decrease: [.scroll(.up, steps: 1)]))
        let script = GestureScript([binding], screen: ScreenSize(width: 2560, height: 1080), monitors: monitors)
        let finger = script.touchscreen
        finger.down(at: (center.x + 80, center.y))
        finger.aFrameLater().move(to: (center.x, center.y + 80))
        finger.lift()
        #expect(script.actions(of: "volume") == Array(repeating: .scroll(.down, steps: 1), count: 6))
    }

    // MARK: Devices mapped to part of the screen

    @Test("a coordinate transformation matrix maps the device onto the bounds of its corners' images; the whole screen, or no area, is no mapping",
          arguments: [
              // xinput map-to-output of the left of two 1280-wide monitors.
              ([0.5, 0, 0, 0, 1, 0, 0, 0, 1], MappedArea(x: 0, y: 0, width: 0.5, height: 1)),
              // The right one, 1280×1080 beside a 1280×1024 one on a 2560×1080 root.
              ([0.5, 0, 0.5, 0, 1, 0, 0, 0, 1], MappedArea(x: 0.5, y: 0, width: 0.5, height: 1)),
              // A touchscreen turned a quarter (its panel rotated), on the lower half.
              ([0, -0.5, 0.5, 0.5, 0, 0.5, 0, 0, 1], MappedArea(x: 0, y: 0.5, width: 0.5, height: 0.5)),
              // Running off the screen: what is on it.
              ([0.5, 0, 0.75, 0, 1, 0, 0, 0, 1], MappedArea(x: 0.75, y: 0, width: 0.25, height: 1)),
          ] as [([Double], MappedArea)])
    func mappedArea(matrix: [Double], area: MappedArea) {
        let found = MappedArea(matrix: matrix)
        #expect(found.map { abs($0.x - area.x) < 1e-9 && abs($0.y - area.y) < 1e-9 && abs($0.width - area.width) < 1e-9
            && abs($0.height - area.height) < 1e-9 } == true, "\(String(describing: found))")
    }

    @Test("no mapped area: the identity, a quarter turn of the whole screen, a line, a projection through zero, a wrong count, NaN",
          arguments: [[1, 0, 0, 0, 1, 0, 0, 0, 1], [0, -1, 1, 1, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0.5, 0, 0, 1],
                      [1, 0, 0, 0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 1, 0], [.nan, 0, 0, 0, 1, 0, 0, 0, 1]] as [[Double]])
    func noMappedArea(matrix: [Double]) {
        #expect(MappedArea(matrix: matrix) == nil)
    }

    @Test("a knob counted from the root's corners counts from the corners of the part a device is mapped to; one on a named monitor stays there")
    func knobOnAMappedDevice() {
        let screen = ScreenSize(width: 2560, height: 1080)
        let leftHalf = MappedArea(x: 0, y: 0, width: 0.5, height: 1)
        #expect(Self.knob(monitor: nil).resolve(screen: screen, monitors: Self.layout, area: leftHalf).center == Point(x: 1130, y: 150))
        #expect(Self.knob(monitor: nil).resolve(screen: screen, area: leftHalf).center == Point(x: 1130, y: 150))
        #expect(Self.knob(monitor: "HDMI-1").resolve(screen: screen, monitors: Self.layout, area: leftHalf).center == Point(x: 2410, y: 150))
        #expect(Self.knob(monitor: nil).resolve(screen: screen, monitors: Self.layout).center == Point(x: 2410, y: 150))
        // Found in review: a center in root pixels the device reaches stays; one it does not,
        // written from the top-left, is measured in its part only where that lands inside it.
        let rightHalf = MappedArea(x: 0.5, y: 0, width: 0.5, height: 1)
        let absolute = KnobSettings(centerX: ScreenCoordinate(2000), centerY: ScreenCoordinate(900), innerRadius: 25, outerRadius: 100)
        #expect(absolute.resolve(screen: screen, monitors: Self.layout, area: rightHalf).center == Point(x: 2000, y: 900))
        #expect(absolute.resolve(screen: screen, monitors: Self.layout, area: leftHalf).center == Point(x: 2000, y: 900),
                "2000 px from the left edge of a 1280 px part is outside it too: left as written")
        let near = KnobSettings(centerX: ScreenCoordinate(300), centerY: ScreenCoordinate(200), innerRadius: 25, outerRadius: 100)
        #expect(near.resolve(screen: screen, monitors: Self.layout, area: rightHalf).center == Point(x: 1580, y: 200))
    }

    @Test("the built-in volume knob on a laptop's touchscreen mapped to its panel, a monitor to its right: a turn there raises the volume, the pen's knob stays in the root's corner")
    func builtInKnobOnMappedTouchscreen() throws {
        let script = GestureScript(configuration: try ConfigLoader.parse(DefaultConfig.text, file: DefaultConfig.name),
                                   screen: ScreenSize(width: 3840, height: 1080))
        var panel = GestureScript.touchscreenDevice
        panel.id = 20
        panel.mappedArea = MappedArea(x: 0, y: 0, width: 0.5, height: 1)
        let finger = script.plug(panel)
        func circle(_ device: ScriptedDevice, around center: (x: Double, y: Double)) {
            let points = (0...24).map { step -> (Double, Double) in
                let angle = Double(step) * 4 * .pi / 180
                return (center.x + 75 * cos(angle), center.y + 75 * sin(angle))
            }
            device.down(at: points[0], force: 0.05)
            for point in points.dropFirst() { device.aFrameLater().move(to: point) }
            device.aFrameLater().lift()
        }
        circle(finger, around: (1770, 150))
        #expect(script.actions(of: "volume").count == 6, "96° turned (past the 30° activation), 15° a step: \(script.actions(of: "volume"))")
        script.forgetOutputs()
        circle(script.pen, around: (3690, 150))
        #expect(script.actions(of: "volume").count == 6, "\(script.actions(of: "volume"))")
    }

    @Test("monitors side by side, or reached through others, are contiguous (X holds the pointer on them); apart, they are not; a point clamps to a monitor's last pixel")
    func contiguity() {
        func monitor(_ name: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Monitor {
            Monitor(name: name, frame: ScreenRect(x: x, y: y, width: width, height: height), widthMillimeters: 0, heightMillimeters: 0)
        }
        let tall = monitor("A", 0, 0, 640, 480), short = monitor("B", 640, 0, 640, 360)
        #expect(MonitorLayout([tall, short]).isContiguous)
        #expect(MonitorLayout([tall, monitor("C", 1280, 0, 100, 100), short]).isContiguous, "C touches A only through B")
        #expect(!MonitorLayout([tall, monitor("far", 700, 0, 640, 360)]).isContiguous)
        #expect(!MonitorLayout([]).isContiguous)
        #expect(short.frame.clamped(Point(x: 900, y: 600)) == Point(x: 900, y: 359))
        #expect(tall.frame.clamped(Point(x: 900, y: 600)) == Point(x: 639, y: 479))
        #expect(tall.frame.clamped(Point(x: 10.5, y: 20)) == Point(x: 10.5, y: 20))
    }
}
