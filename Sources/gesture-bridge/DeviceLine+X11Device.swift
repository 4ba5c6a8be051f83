import GestureKit
import X11Bridge

extension DeviceLine {
    /// A device as `devices --json` lists it; with `learning`, its `learned` object too (null
    /// for a device without pressure). `run --json`'s devices have none. `nameAloneInUse`: a
    /// device of its name without ids is connected (`PressLearning.learner(name:product:nameAloneInUse:)`).
    /// `bindings` nil: which bindings listen is not known (`listened` and `bindings` null).
    init(_ device: X11Device, bindings: BindingSet?, learning: PressLearning? = nil, nameAloneInUse: Bool = false) {
        self.init(id: device.id, name: device.name, kind: device.kind?.rawValue ?? "none", enabled: device.isEnabled,
                  driver: device.driver.rawValue, type: device.type?.name, pressure: device.pressureAxis?.pressureRange,
                  pressureMoved: device.pressureHasMoved, touches: device.touch?.maxTouches,
                  touchMode: device.touch?.mode.rawValue, bindings: bindings.map { DeviceDescription.listeners(of: device, in: $0) },
                  learned: learning.map { learning in
                      let learner = learning.learner(name: device.name, product: device.product, nameAloneInUse: nameAloneInUse)
                      return NullWhenNil(wrappedValue: Devices.learns(device) ? DeviceLearnedLine(learner) : nil)
                  }, ids: device.product)
    }
}
