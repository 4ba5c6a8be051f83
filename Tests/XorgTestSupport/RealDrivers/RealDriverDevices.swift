import Foundation
import Glibc

/// A pen on an emulated evdev tablet, driven as the kernel reports one: the tool enters
/// proximity (BTN_TOOL_PEN), the tip touches (BTN_TOUCH) with pressure, moves, lifts and leaves.
/// The driver decides what X sees (wacom and libinput press button 1 at their own pressure
/// threshold, evdev on BTN_TOUCH). Every helper returns once the driver has read the frame.
public final class RealDriverPen: DrivenPen {
    public let node: EvdevNode
    public private(set) var position: PixelPoint?
    /// The last pressure sent, normalized 0...1.
    public private(set) var pressure: Double = 0
    public private(set) var isInProximity = false
    public private(set) var isTipDown = false
    /// When the tip last lifted, for `leave()`.
    private var liftedAt: Date?
    /// Tilt sent with every frame, in the device's units (degrees), on pens that have it.
    public var tilt: (x: Int32, y: Int32) = (10, -5)

    init(node: EvdevNode) {
        self.node = node
    }

    public var description: EvdevDeviceDescription { node.description }

    /// The raw pressure the device reports for a normalized `pressure`.
    public func rawPressure(_ pressure: Double) -> Int32 {
        description.pressureAxis?.value(normalized: pressure) ?? 0
    }

    private func positionEvents(_ position: PixelPoint) -> [(type: UInt16, code: UInt16, value: Int32)] {
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [
            (EvdevCode.absolute, EvdevCode.x, RealDriverScale.units(position.x)),
            (EvdevCode.absolute, EvdevCode.y, RealDriverScale.units(position.y)),
        ]
        if description.hasTilt {
            events.append((EvdevCode.absolute, EvdevCode.tiltX, tilt.x))
            events.append((EvdevCode.absolute, EvdevCode.tiltY, tilt.y))
        }
        return events
    }

    private func proximityEvents() -> [(type: UInt16, code: UInt16, value: Int32)] {
        guard !isInProximity else { return [] }
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [(EvdevCode.key, EvdevCode.toolPen, 1)]
        if description.miscellaneous.contains(EvdevCode.serial) {
            events.append((EvdevCode.miscellaneous, EvdevCode.serial, 1))
        }
        return events
    }

    /// Moves the pen above the surface to `position`, entering proximity if it is out.
    public func hover(to position: PixelPoint) throws {
        if isTipDown { try up() }
        var events = proximityEvents() + positionEvents(position)
        events.append((EvdevCode.absolute, EvdevCode.pressure, rawPressure(0)))
        try node.send(events)
        isInProximity = true
        self.position = position
        pressure = 0
    }

    /// Puts the tip down at `position` with `pressure` (0...1 of the device's range).
    public func down(at position: PixelPoint, pressure: Double = 0.5) throws {
        if isTipDown { try up() }
        if !isInProximity || self.position.map({ $0 != position }) ?? true {
            try hover(to: position)
        }
        var events = positionEvents(position)
        events.append((EvdevCode.absolute, EvdevCode.pressure, rawPressure(pressure)))
        events.append((EvdevCode.key, EvdevCode.touch, 1))
        try node.send(events)
        isTipDown = true
        self.pressure = pressure
    }

    /// Moves to `position`; the pressure stays as it was unless given (0 while hovering).
    public func move(to position: PixelPoint, pressure: Double? = nil) throws {
        let newPressure = isTipDown ? (pressure ?? self.pressure) : 0
        var events = proximityEvents() + positionEvents(position)
        events.append((EvdevCode.absolute, EvdevCode.pressure, rawPressure(newPressure)))
        try node.send(events)
        isInProximity = true
        self.position = position
        self.pressure = newPressure
    }

    /// Lifts the tip; the pen stays in proximity.
    public func up() throws {
        guard isTipDown, let position else { return }
        var events = positionEvents(position)
        events.append((EvdevCode.absolute, EvdevCode.pressure, rawPressure(0)))
        events.append((EvdevCode.key, EvdevCode.touch, 0))
        try node.send(events)
        isTipDown = false
        pressure = 0
        liftedAt = Date()
    }

    /// How long after the lift a hand takes the pen out of range, at the least: tens of
    /// milliseconds, not the microseconds two frames written one after the other take. Out of
    /// range within about a millisecond of the lift, the pen meets Xorg 21.1's crash (README's
    /// known limits): a proximity event the driver made while the bridge still held the pen's
    /// kept stroke apart from its master, handed to the master once the bridge let it go. The
    /// real-driver tier met it in about one libinput knob turn in fifty.
    public static let handLeavesAfterLift = 0.03

    /// Takes the pen away from the tablet (out of proximity), lifting the tip first; once
    /// lifted, no sooner than `handLeavesAfterLift` after the lift.
    public func leave() throws {
        try up()
        guard isInProximity else { return }
        if let liftedAt {
            let wait = Self.handLeavesAfterLift - Date().timeIntervalSince(liftedAt)
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
        }
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [(EvdevCode.key, EvdevCode.toolPen, 0)]
        if description.hasTilt {
            events += [(EvdevCode.absolute, EvdevCode.tiltX, 0), (EvdevCode.absolute, EvdevCode.tiltY, 0)]
        }
        try node.send(events)
        isInProximity = false
    }

    /// A tap: down at `position` with `pressure`, then up.
    public func tap(at position: PixelPoint, pressure: Double = 0.4) throws {
        try down(at: position, pressure: pressure)
        try up()
    }
}

/// A multitouch screen on an emulated evdev node, driven with the kernel's slot protocol (type
/// B): each finger in a slot of its own with a fresh tracking id, and the single-touch axes
/// (BTN_TOUCH, ABS_X/Y, ABS_PRESSURE) following the first finger, as the kernel emulates them.
public final class RealDriverTouchscreen {
    public let node: EvdevNode
    /// The fingers down, by slot: position and normalized pressure.
    public private(set) var activeTouches: [Int: (position: PixelPoint, pressure: Double)] = [:]
    private var nextTrackingID: Int32 = 1

    init(node: EvdevNode) {
        self.node = node
    }

    public var description: EvdevDeviceDescription { node.description }
    public var hasPressure: Bool { description.axes[EvdevCode.touchPressure] != nil }

    private func raw(_ pressure: Double) -> Int32 {
        description.axes[EvdevCode.touchPressure]?.value(normalized: pressure) ?? 0
    }

    private func slotEvents(_ slot: Int, _ position: PixelPoint, _ pressure: Double) -> [(type: UInt16, code: UInt16, value: Int32)] {
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [
            (EvdevCode.absolute, EvdevCode.positionX, RealDriverScale.units(position.x)),
            (EvdevCode.absolute, EvdevCode.positionY, RealDriverScale.units(position.y)),
        ]
        if hasPressure { events.append((EvdevCode.absolute, EvdevCode.touchPressure, raw(pressure))) }
        return events
    }

    /// The single-touch axes of the first finger down, after a change.
    private func singleTouchEvents() -> [(type: UInt16, code: UInt16, value: Int32)] {
        guard let first = activeTouches.keys.min(), let touch = activeTouches[first] else { return [] }
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [
            (EvdevCode.absolute, EvdevCode.x, RealDriverScale.units(touch.position.x)),
            (EvdevCode.absolute, EvdevCode.y, RealDriverScale.units(touch.position.y)),
        ]
        if description.axes[EvdevCode.pressure] != nil {
            events.append((EvdevCode.absolute, EvdevCode.pressure, raw(touch.pressure)))
        }
        return events
    }

    /// A finger touches at `position` with `pressure` (0...1 of the device's range) in `slot`.
    public func begin(slot: Int = 0, at position: PixelPoint, pressure: Double = 0.5) throws {
        if activeTouches[slot] != nil { try end(slot: slot) }
        let wasEmpty = activeTouches.isEmpty
        activeTouches[slot] = (position, pressure)
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [
            (EvdevCode.absolute, EvdevCode.slot, Int32(slot)),
            (EvdevCode.absolute, EvdevCode.trackingID, nextTrackingID),
        ]
        nextTrackingID += 1
        events += slotEvents(slot, position, pressure)
        if wasEmpty { events.append((EvdevCode.key, EvdevCode.touch, 1)) }
        events += singleTouchEvents()
        try node.send(events)
    }

    /// The finger in `slot` moves or presses harder; what is not given stays as it was.
    public func update(slot: Int = 0, to position: PixelPoint? = nil, pressure: Double? = nil) throws {
        guard let current = activeTouches[slot] else {
            return try begin(slot: slot, at: position ?? (0, 0), pressure: pressure ?? 0.5)
        }
        let newPosition = position ?? current.position
        let newPressure = pressure ?? current.pressure
        activeTouches[slot] = (newPosition, newPressure)
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [(EvdevCode.absolute, EvdevCode.slot, Int32(slot))]
        events += slotEvents(slot, newPosition, newPressure)
        events += singleTouchEvents()
        try node.send(events)
    }

    /// The finger in `slot` lifts.
    public func end(slot: Int = 0) throws {
        guard activeTouches[slot] != nil else { return }
        activeTouches[slot] = nil
        var events: [(type: UInt16, code: UInt16, value: Int32)] = [
            (EvdevCode.absolute, EvdevCode.slot, Int32(slot)),
            (EvdevCode.absolute, EvdevCode.trackingID, -1),
        ]
        if activeTouches.isEmpty {
            events.append((EvdevCode.key, EvdevCode.touch, 0))
            if description.axes[EvdevCode.pressure] != nil { events.append((EvdevCode.absolute, EvdevCode.pressure, 0)) }
        } else {
            events += singleTouchEvents()
        }
        try node.send(events)
    }

    /// A quick touch and lift.
    public func tap(slot: Int = 0, at position: PixelPoint, pressure: Double = 0.4) throws {
        try begin(slot: slot, at: position, pressure: pressure)
        try end(slot: slot)
    }
}

/// Pixels to the emulated devices' units: every axis spans the screen at
/// `EvdevDeviceDescription.unitsPerPixel` units a pixel, the middle of a pixel's units sent.
enum RealDriverScale {
    static func units(_ pixels: Double) -> Int32 {
        Int32((pixels * Double(EvdevDeviceDescription.unitsPerPixel)).rounded()) + EvdevDeviceDescription.unitsPerPixel / 2
    }
}
