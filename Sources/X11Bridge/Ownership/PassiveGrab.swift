import CX11

/// The passive grab an ownership class holds on the root, for every master device, while an
/// owning binding listens: a synchronous grab of button 1 for pens and mice, the first claim
/// on every touch for touchscreens.
struct PassiveGrab {
    /// What the grab holds back, as ownership reports name it.
    let input: OwnershipReport.Input
    private(set) var isHeld = false

    init(holding input: OwnershipReport.Input) {
        self.input = input
    }

    /// Takes or drops the grab, and says so through `report` (a grab the server refuses stays
    /// dropped). Before dropping it, the owner hands back what it still holds.
    mutating func set(_ wanted: Bool, on connection: XConnection, report: (OwnershipReport) -> Void) {
        guard wanted != isHeld else { return }
        var modifiers = XIGrabModifiers.anyModifiers
        if wanted {
            let failed = XI2EventMask(device: XIAllMasterDevices, events: events).withCMask { mask in
                switch input {
                case .press:
                    XIGrabButton(connection.display, XIAllMasterDevices, 1, connection.root, 0, XIGrabModeSync, XIGrabModeAsync,
                                 0, &mask, 1, &modifiers)
                case .touch:
                    XIGrabTouchBegin(connection.display, XIAllMasterDevices, connection.root, 0, &mask, 1, &modifiers)
                }
            }
            if failed != 0 {
                report(.cannotHold(input))
                return
            }
            report(.holding(input))
        } else {
            switch input {
            case .press: XIUngrabButton(connection.display, XIAllMasterDevices, 1, connection.root, 1, &modifiers)
            case .touch: XIUngrabTouchBegin(connection.display, XIAllMasterDevices, connection.root, 1, &modifiers)
            }
        }
        isHeld = wanted
        connection.flush()
    }

    /// The events the grab selects.
    private var events: Set<Int32> {
        switch input {
        case .press: [XI_ButtonPress, XI_ButtonRelease, XI_Motion]
        case .touch: [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd]
        }
    }
}
