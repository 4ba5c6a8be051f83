import GestureKit
import Testing
@testable import X11Bridge

@Suite("Button maps: the primary button, and the button that arrives as another")
struct PrimaryButtonTests {
    @Test("a map composed with its master's: left-handed by either, or by both (which cancel)")
    func composed() {
        let leftHanded = ButtonMap([3, 2, 1])
        #expect(ButtonMap.identity.primary == 1)
        #expect(leftHanded.then(.identity).primary == 3)
        #expect(ButtonMap.identity.then(leftHanded).primary == 3)
        #expect(leftHanded.then(leftHanded).primary == 1)
        // The master's map is longer: the buttons beyond the device's are themselves first.
        #expect(ButtonMap([1, 2, 3]).then(ButtonMap([3, 2, 1, 5, 4])).logical == [3, 2, 1, 5, 4])
        #expect(ButtonMap([1, 2, 3, 5, 4]).physical(of: 5) == 4, "natural scrolling: physical 4 is logical down")
        #expect(ButtonMap([0, 2, 3]).primary == nil, "button 1 switched off and no other is 1")
        #expect(ButtonMap([3, 2, 1]).physical(of: 8) == 8, "a button beyond the map is itself")
    }

    @Test("a left-handed mouse's contact is its right button, which also ends it; its left button is no contact")
    func leftHandedMouse() {
        var source = XI2InputSource(devices: [DeviceFixtures.mouse], screen: DeviceFixtures.screen)
        let mouse = DeviceFixtures.mouse.id
        source.setPrimaryButton(3, of: mouse)
        func raw(_ kind: RawInput.Kind, _ button: Int) -> RawInput {
            RawInput(kind: kind, device: mouse, source: mouse, detail: button, valuators: [:])
        }
        let here = { Point(x: 10, y: 10) }
        #expect(source.handle(raw(.buttonPress, 1), at: 0, pointer: here).isEmpty)
        #expect(source.handle(raw(.buttonRelease, 1), at: 0.1, pointer: here).isEmpty)
        #expect(source.handle(raw(.buttonPress, 3), at: 0.2, pointer: here).map(\.phase) == [.begin])
        // Right-handed again while it is down: the button that began it still ends it.
        source.setPrimaryButton(1, of: mouse)
        #expect(source.isTip(3, of: mouse) && !source.isTip(1, of: mouse))
        #expect(source.handle(raw(.buttonRelease, 1), at: 0.3, pointer: here).isEmpty)
        #expect(source.handle(raw(.buttonRelease, 3), at: 0.4, pointer: here).map(\.phase) == [.end])
        #expect(source.primaryButton(of: mouse) == 1)
    }
}
