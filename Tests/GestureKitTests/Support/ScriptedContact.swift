import Testing
@testable import GestureKit

/// One finger (or a pen's tip) in a script. Forces are fractions of the device's own
/// pressure range and are sent as the raw units the device would report; `pressure:` sends
/// raw units directly, for the cases where the exact value matters.
struct ScriptedContact {
    let script: GestureScript
    let device: InputDevice
    let contact: Int

    var key: ContactKey { ContactKey(device: device.id, contact: contact) }

    /// Lets a frame (`VirtualClock.frame`) pass on the script's clock: what the device does
    /// next, it does a frame after its last sample (`pen.aFrameLater().lift()`).
    @discardableResult
    func aFrameLater() -> Self {
        script.clock.advance(by: VirtualClock.frame)
        return self
    }

    /// The raw pressure the device reports for `force`; nil on a device without pressure.
    func pressure(for force: Double) -> Double? {
        device.pressure.map { $0.min + force * ($0.max - $0.min) }
    }

    private var position: Point { script.pose(of: key)?.position ?? Point(x: 0, y: 0) }
    private var currentPressure: Double? { script.pose(of: key)?.pressure ?? pressure(for: 0) }

    func down(at spot: Spot, force: Double = 0) {
        script.send(.begin, key, at: Point(spot), pressure: pressure(for: force))
    }

    /// Touches down given to the application from the start, for `reason` the X side knows
    /// (`GestureEngine.handle(_:handedOverAtBegin:into:)`).
    func down(at spot: Spot, force: Double = 0, handedOver reason: ReleaseReason) {
        script.send(.begin, key, at: Point(spot), pressure: pressure(for: force), handedOverAtBegin: reason)
    }

    func down(at spot: Spot, pressure: Double) {
        script.send(.begin, key, at: Point(spot), pressure: device.hasPressure ? pressure : nil)
    }

    /// Slides without pressing harder or lighter.
    func move(to spot: Spot) {
        script.send(.move, key, at: Point(spot), pressure: currentPressure)
    }

    func move(to spot: Spot, force: Double) {
        script.send(.move, key, at: Point(spot), pressure: pressure(for: force))
    }

    /// Presses harder or lighter without moving.
    func press(to force: Double) {
        script.send(.move, key, at: position, pressure: pressure(for: force))
    }

    func press(pressure: Double) {
        script.send(.move, key, at: position, pressure: device.hasPressure ? pressure : nil)
    }

    /// Lifts where it is; the pressure is gone as it leaves the surface.
    func lift() {
        script.send(.end, key, at: position, pressure: pressure(for: 0))
    }

    /// The system takes the contact away (a grab, a device reset).
    func cancel() {
        script.send(.cancel, key, at: position, pressure: currentPressure)
    }

    func hover(at spot: Spot) {
        script.send(.hover, key, at: Point(spot), pressure: nil)
    }
}
