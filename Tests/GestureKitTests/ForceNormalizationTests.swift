import Testing
@testable import GestureKit

@Suite("Force against each device's pressure range")
struct ForceNormalizationTests {
    static let deepPress = Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.75)),
                                   onStart: [.click(button: 3)])

    @Test("a pen's 0...1000 and a touchscreen's 0...2047 both read as 0...1")
    func eachRangeReadsAsZeroToOne() throws {
        let pen = try #require(PressureRange(min: 0, max: 1000))
        let touchscreen = try #require(PressureRange(min: 0, max: 2047))
        #expect([0, 250, 750, 1000].map(pen.normalize) == [0, 0.25, 0.75, 1])
        #expect([0, 1023.5, 2047].map(touchscreen.normalize) == [0, 0.5, 1])
    }

    @Test("a range that does not start at zero reads its minimum as no force")
    func offsetRange() throws {
        let range = try #require(PressureRange(min: 100, max: 1100))
        #expect([100, 600, 1100].map(range.normalize) == [0, 0.5, 1])
    }

    @Test("readings outside the advertised range are clamped, and garbage reads as no force")
    func outOfRangeIsClamped() throws {
        let pen = try #require(PressureRange(min: 0, max: 1000))
        #expect(pen.normalize(1200) == 1)
        #expect(pen.normalize(-5) == 0)
        #expect(pen.normalize(.nan) == 0)
    }

    @Test("a flat or upside-down pressure axis is no pressure range at all")
    func flatRangeIsRejected() {
        #expect(PressureRange(min: 5, max: 5) == nil)
        #expect(PressureRange(min: 1000, max: 0) == nil)
        #expect(PressureRange(min: 0, max: .infinity) == nil)
    }

    @Test("a touchscreen reaches the deep press at 75% of its own range, not at a pen's 750 units")
    func touchscreenUsesItsOwnRange() {
        let script = GestureScript(Self.deepPress)
        let finger = script.touchscreen
        finger.down(at: (100, 100), pressure: 750)
        finger.aFrameLater().press(pressure: 1535)  // 0.7499 of 2047
        #expect(script.gestureStates("right-click") == [])
        finger.aFrameLater().press(pressure: 1536)
        expectSequence(script.gestureStates("right-click"), [.began])
        expectSequence(script.reports(of: "right-click").compactMap(\.force), [1536.0 / 2047])
    }

    @Test("a pen reaches the same deep press at 750 of its 1000 units")
    func penUsesItsOwnRange() {
        let script = GestureScript(Self.deepPress)
        script.pen.down(at: (100, 100), pressure: 100)
        script.pen.aFrameLater().press(pressure: 749)
        #expect(script.gestureStates("right-click") == [])
        script.pen.press(pressure: 750)
        expectSequence(script.actions, [.click(button: 3, at: (100, 100))])
    }

    @Test("force recognizers never attach to a device without pressure", arguments: RecognizerKind.allCases)
    func forceNeedsPressure(kind: RecognizerKind) {
        let binding = Binding(name: kind.rawValue, recognizer: .standard(kind))
        #expect(binding.listens(to: GestureScript.mouseDevice) == !kind.needsPressure)
        #expect(binding.listens(to: GestureScript.penDevice))
        #expect(binding.listens(to: GestureScript.touchscreenDevice))
    }

    @Test("a mouse press with only pressure gestures bound goes straight to the application")
    func mouseWithPressureGesturesIsUnbound() {
        let script = GestureScript(
            Self.deepPress,
            Binding(name: "squeeze", recognizer: .standard(.squeeze)),
            Binding(name: "force", recognizer: .standard(.force), ownsContact: true),
            Binding(name: "levels", recognizer: .standard(.pressureThresholds)))
        script.mouse.down(at: (100, 100))
        expectSequence(script.decisions, [.released(.unbound)])
        script.clock.advance(by: 0.1)
        script.mouse.move(to: (300, 300))
        script.clock.advance(by: 1)
        script.mouse.lift()
        expectSequence(script.gestureEvents.map(\.gesture), [])
        expectSequence(script.decisions, [.released(.unbound)])
        #expect(script.bugs == [])
    }

    @Test("a mouse press is not released as unbound while a long press listens to it")
    func mouseWithLongPressIsHeld() {
        let script = GestureScript(Self.deepPress, Binding(name: "menu", recognizer: .standard(.longPress)))
        script.mouse.down(at: (100, 100))
        #expect(script.decisions == [])
        script.clock.advance(by: 0.6)
        expectSequence(script.decisions, [.claimed(by: "menu")])
    }
}
