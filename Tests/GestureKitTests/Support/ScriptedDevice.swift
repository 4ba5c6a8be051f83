import Testing
@testable import GestureKit

/// A device in a script. Its first contact (a pen's tip, the mouse button, a touchscreen's
/// first finger) is driven directly: `pen.down(at: (100, 100), force: 0.1)`; other fingers
/// through `finger(_:)`.
struct ScriptedDevice {
    let script: GestureScript
    let device: InputDevice

    var id: Int { device.id }
    var key: ContactKey { ContactKey(device: device.id, contact: 0) }

    func finger(_ contact: Int) -> ScriptedContact {
        ScriptedContact(script: script, device: device, contact: contact)
    }

    private var tip: ScriptedContact { finger(0) }

    func down(at spot: Spot, force: Double = 0) { tip.down(at: spot, force: force) }
    func down(at spot: Spot, pressure: Double) { tip.down(at: spot, pressure: pressure) }
    func move(to spot: Spot) { tip.move(to: spot) }
    func move(to spot: Spot, force: Double) { tip.move(to: spot, force: force) }
    func press(to force: Double) { tip.press(to: force) }
    func press(pressure: Double) { tip.press(pressure: pressure) }

    /// Lets a frame (`VirtualClock.frame`) pass on the script's clock: what the device does
    /// next, it does a frame after its last sample (`pen.aFrameLater().lift()`).
    @discardableResult
    func aFrameLater() -> Self {
        script.clock.advance(by: VirtualClock.frame)
        return self
    }

    /// Presses to each force in turn, a frame (`VirtualClock.frame`) after the sample before.
    func press(frameByFrame forces: Double...) {
        for force in forces {
            script.clock.advance(by: VirtualClock.frame)
            press(to: force)
        }
    }
    func lift() { tip.lift() }
    func cancel() { tip.cancel() }
    func hover(at spot: Spot) { tip.hover(at: spot) }

    func unplug() { script.unplug(device) }
}
