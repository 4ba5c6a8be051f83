/// The passive grab an ownership class holds on the root, for every master device, while an
/// owning binding listens: a synchronous grab of button 1 for pens and mice, the first claim
/// on every touch for touchscreens.
struct PassiveGrab {
    /// What the grab holds back, as ownership reports name it.
    let input: OwnershipReport.Input
    private(set) var isHeld = false
    /// Wanted and refused (another client holds the same grab, a gesture daemon): said once,
    /// until the grab is taken or no longer wanted.
    private(set) var isRefused = false
    /// The serial of the request that took the grab when it was not held (its low 32 bits):
    /// events the server made before it (a lower serial) met no grab, however late the bridge
    /// reads them. A renewal keeps it: the grab is taken again at once.
    private var takenAt: UInt32 = 0
    /// The serials of the requests that took and dropped the grab last (`set(false)`): the
    /// server applies the ungrab only when it reads it, so a press it made before then (a
    /// lower serial) met the grab, read late or not.
    private var lastHeld: (from: UInt32, to: UInt32)?

    init(holding input: OwnershipReport.Input) {
        self.input = input
    }

    /// Takes or drops the grab, and says so through `report` (a grab the server refuses stays
    /// dropped). Before dropping it, the owner hands back what it still holds.
    mutating func set(_ wanted: Bool, on connection: XConnection, report: (OwnershipReport) -> Void) {
        if !wanted { isRefused = false }
        guard wanted != isHeld else { return }
        if wanted {
            takenAt = UInt32(truncatingIfNeeded: connection.nextRequestSerial)
            guard take(on: connection) else {
                if !isRefused { report(.cannotHold(input)) }
                isRefused = true
                return
            }
            isRefused = false
            report(.holding(input))
        } else {
            lastHeld = (takenAt, UInt32(truncatingIfNeeded: connection.nextRequestSerial))
            drop(on: connection)
        }
        isHeld = wanted
        connection.flush()
    }

    /// Drops a held grab and takes it again, which puts it in front of every other passive grab
    /// on the root (`GrabReconciler`); said through `report` only when the server refuses it.
    mutating func renew(on connection: XConnection, report: (OwnershipReport) -> Void) {
        guard isHeld else { return }
        drop(on: connection)
        isHeld = take(on: connection)
        if !isHeld { report(.cannotHold(input)) }
        connection.flush()
    }

    /// Whether the grab was in place when the server made an event of serial `serial`
    /// (`XCBEvent.serial`): held then, and taken by a request before it.
    /// The serial compared against moves up with each event found after it, so the 32-bit
    /// difference never wraps however long the bridge runs.
    mutating func wasHeld(atSerial serial: UInt32) -> Bool {
        if isHeld, Int32(bitPattern: serial &- takenAt) >= 0 {
            takenAt = serial
            return true
        }
        // Made while the ungrab was still on its way: the grab the bridge had dropped took it.
        guard let held = lastHeld else { return false }
        return Int32(bitPattern: serial &- held.from) >= 0 && Int32(bitPattern: serial &- held.to) < 0
    }

    /// Whether the server took the grab.
    private func take(on connection: XConnection) -> Bool {
        let failed = switch input {
        case .press: connection.grabButton1(selecting: PointerGrabKind.eventTypes)
        case .touch: connection.grabTouchBegin(selecting: TouchGrabKind.eventTypes)
        }
        return failed == 0
    }

    private func drop(on connection: XConnection) {
        switch input {
        case .press: connection.ungrabButton1()
        case .touch: connection.ungrabTouchBegin()
        }
    }
}
