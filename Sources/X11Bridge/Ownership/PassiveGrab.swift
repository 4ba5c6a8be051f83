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
        if wanted {
            let failed = switch input {
            case .press: connection.grabButton1(selecting: PointerGrabKind.eventTypes)
            case .touch: connection.grabTouchBegin(selecting: TouchGrabKind.eventTypes)
            }
            if failed != 0 {
                report(.cannotHold(input))
                return
            }
            report(.holding(input))
        } else {
            switch input {
            case .press: connection.ungrabButton1()
            case .touch: connection.ungrabTouchBegin()
            }
        }
        isHeld = wanted
        connection.flush()
    }
}
