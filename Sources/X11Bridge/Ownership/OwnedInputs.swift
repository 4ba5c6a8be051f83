import GestureKit

/// Which input the bridge must hold back from applications: pen and mouse presses, touches,
/// both or neither. Follows from the bindings and the devices present, nothing else, so the
/// grabs can be set from it after any change (`GrabReconciler`).
struct OwnedInputs: Sendable, Hashable {
    /// Some owning binding listens to a pen, eraser, mouse or touchpad present: presses wait
    /// for the engine.
    var presses: Bool
    /// Some owning binding listens to a touchscreen present: touches wait for the engine.
    var touches: Bool

    static let none = OwnedInputs(presses: false, touches: false)

    init(presses: Bool, touches: Bool) {
        self.presses = presses
        self.touches = touches
    }

    /// What `configuration` needs held for `devices`.
    init(configuration: BindingSet, devices: some Collection<InputDevice>) {
        let owning = configuration.bindings.filter(\.ownsContact)
        func owned(_ kind: (InputDevice) -> Bool) -> Bool {
            devices.contains { device in kind(device) && owning.contains { $0.listens(to: device) } }
        }
        presses = owned(\.isPointer)
        touches = owned { $0.kind == .touch }
    }
}

extension InputDevice {
    /// A device whose contacts come through the master pointer's buttons: a pen, eraser, mouse
    /// or touchpad (its click, or the tap its driver makes a click).
    var isPointer: Bool {
        switch kind {
        case .pen, .eraser, .mouse, .touchpad: return true
        case .touch: return false
        }
    }
}
