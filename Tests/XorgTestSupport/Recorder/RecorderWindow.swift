import CX11
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A test application: a mapped top-level window on its own connection that records every XI2
/// event it receives, so a test can assert what an application really gets.
///
/// It selects, on its window and for the master devices, XI2 key press/release, button
/// press/release and motion, plus touch begin/update/end when `touchAware` (XI 2.2). A window
/// that is not touch-aware gets the pointer events the server emulates from touches. With
/// `devices: .all` it selects for every device instead, as a drawing program that reads a
/// tablet's own device does (Qt 5's xcb backend for tablets, GTK 2's extension events): it then
/// gets each slave's events beside its master's, the slave's with its own `deviceID`.
///
/// The Display connection is not thread-safe: use a recorder on one thread at a time. It keeps
/// its server alive; close it (or let it go) before stopping the server.
public final class RecorderWindow {
    /// Which devices a recorder selects its events for.
    public enum Devices: Sendable, Hashable {
        /// The master devices only (XIAllMasterDevices), as most toolkits do.
        case masters
        /// Every device, slaves too (XIAllDevices).
        case all

        fileprivate var xiDevice: Int32 {
            switch self {
            case .masters: XIAllMasterDevices
            case .all: XIAllDevices
            }
        }
    }

    public let server: any HeadlessDisplay
    public let frame: WindowFrame
    public let touchAware: Bool
    public let devices: Devices
    /// The X window id.
    public let window: UInt

    private let display: OpaquePointer
    private let inputExtensionOpcode: Int32
    private let connectionLoss = ConnectionLossFlag()
    private var recorded: [RecordedEvent] = []
    private var valuatorLabelsByDevice: [Int32: [Int: String]] = [:]
    private var isClosed = false

    /// Opens a connection, creates and maps the window, and returns once it is on screen.
    /// - Parameters:
    ///   - frame: where the window goes; the whole screen by default.
    ///   - wmClass: the WM_CLASS instance and class names, as a bridge's per-application rules see them.
    ///   - takesKeyboardFocus: gives the window the input focus so it receives key events.
    public init(
        server: any HeadlessDisplay,
        frame: WindowFrame? = nil,
        wmClass: (instance: String, className: String) = ("recorder", "GestureBridgeRecorder"),
        title: String = "GestureBridge recorder",
        touchAware: Bool = false,
        devices: Devices = .masters,
        takesKeyboardFocus: Bool = true
    ) throws {
        guard let display = XOpenDisplay(server.displayName) else {
            throw RecorderWindowError.cannotOpenDisplay(server.displayName)
        }
        self.display = display
        self.server = server
        self.touchAware = touchAware
        self.devices = devices
        let frame = frame ?? WindowFrame(x: 0, y: 0, width: server.width, height: server.height)
        self.frame = frame
        XConnectionLossGuard.protect(display, raising: connectionLoss)

        var opcode: Int32 = 0
        var firstEvent: Int32 = 0
        var firstError: Int32 = 0
        var major: Int32 = 2
        var minor: Int32 = 2
        let hasExtension = XQueryExtension(display, "XInputExtension", &opcode, &firstEvent, &firstError) != 0
        let versionStatus = hasExtension ? XIQueryVersion(display, &major, &minor) : BadRequest
        let hasVersion = versionStatus == Success && (major > 2 || (major == 2 && minor >= (touchAware ? 2 : 0)))
        guard hasExtension, hasVersion else {
            Self.closeConnection(display)
            throw RecorderWindowError.missingXInput2(
                display: server.displayName, version: hasExtension ? "\(major).\(minor)" : "none")
        }
        self.inputExtensionOpcode = opcode

        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        window = XCreateSimpleWindow(
            display, root, Int32(frame.x), Int32(frame.y), UInt32(max(1, frame.width)), UInt32(max(1, frame.height)),
            0, XBlackPixel(display, screen), XWhitePixel(display, screen))

        let window = self.window
        let errors = XErrorTrap.collectingErrors(on: display) {
            Self.setWindowManagerHints(display: display, window: window, wmClass: wmClass, title: title)
            XSelectInput(display, window, StructureNotifyMask)
            Self.selectInputEvents(display: display, window: window, touchAware: touchAware, devices: devices)
            XMapRaised(display, window)
        }
        guard errors.isEmpty else {
            Self.closeConnection(display)
            throw RecorderWindowError.setupFailed(display: server.displayName, errors: errors)
        }
        guard waitUntilMapped() else {
            Self.closeConnection(display)
            throw RecorderWindowError.notMapped(display: server.displayName)
        }
        if takesKeyboardFocus {
            let focusErrors = XErrorTrap.collectingErrors(on: display) {
                XSetInputFocus(display, window, RevertToParent, UInt(CurrentTime))
            }
            guard focusErrors.isEmpty else {
                Self.closeConnection(display)
                throw RecorderWindowError.setupFailed(display: server.displayName, errors: focusErrors)
            }
        }
        recorded.removeAll()
    }

    deinit {
        close()
    }

    /// False once the server has gone away under the recorder.
    public var isConnected: Bool {
        !isClosed && !connectionLoss.isLost
    }

    /// The events recorded so far, without reading new ones.
    public var recordedEvents: [RecordedEvent] {
        recorded
    }

    /// Reads events until `isComplete` accepts everything recorded since the last `drain()`,
    /// or `seconds` pass; returns that record either way (it is not cleared), so a test
    /// waits exactly as long as the events take and no longer.
    public func events(
        waitingUpTo seconds: Double = 2,
        until isComplete: ([RecordedEvent]) -> Bool
    ) -> [RecordedEvent] {
        synchronize()
        let deadline = Date().addingTimeInterval(seconds)
        while !isComplete(recorded), isConnected {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            waitForInput(upTo: remaining)
            readQueuedEvents()
        }
        return recorded
    }

    /// Waits until `isComplete` accepts the events recorded since the last `drain()`; false when
    /// `seconds` passed first. The events stay recorded for the next read.
    public func waitForEvents(upTo seconds: Double = 2, until isComplete: ([RecordedEvent]) -> Bool) -> Bool {
        isComplete(events(waitingUpTo: seconds, until: isComplete))
    }

    /// Everything that arrives within the next `seconds`, recorded since the last `drain()`: for
    /// a check that nothing more comes, where no event can say that it is over.
    public func events(arrivingWithin seconds: Double) -> [RecordedEvent] {
        events(waitingUpTo: seconds) { _ in false }
    }

    /// Waits until at least `count` events of `kind` are recorded; returns those events.
    public func events(
        ofKind kind: RecordedEventKind, count: Int = 1, waitingUpTo seconds: Double = 2
    ) -> [RecordedEvent] {
        events(waitingUpTo: seconds) { $0.filter { $0.kind == kind }.count >= count }
            .filter { $0.kind == kind }
    }

    /// Everything the server has sent so far (one round trip makes sure of that), recorded since
    /// the last drain; the record starts empty again.
    @discardableResult
    public func drain() -> [RecordedEvent] {
        synchronize()
        let drained = recorded
        recorded.removeAll()
        return drained
    }

    /// Where the core pointer is and which buttons are down, as XQueryPointer reports it:
    /// after a gesture, `buttonsHeld` must be empty or the user is left with a stuck button.
    public func pointerState() -> CorePointerState? {
        guard isConnected else { return nil }
        let state = CorePointerState.query(display)
        return isConnected ? state : nil
    }

    /// The virtual core pointer's device id: X.Org gives it 2, always.
    public static let corePointer: Int32 = 2

    /// Takes the core pointer with an active grab on this window, as an open menu does (GTK's
    /// through XIGrabDevice): until `ungrabPointer`, every press, release and motion comes here,
    /// and no passive grab activates. `touches`: the grab takes touch events too, as GTK 3's
    /// menus do. True when X granted it.
    public func grabPointer(touches: Bool = false) -> Bool {
        guard isConnected else { return false }
        let touchEvents = touches ? [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] : []
        var mask = XI2EventMask(([XI_ButtonPress, XI_ButtonRelease, XI_Motion] + touchEvents).map(Int.init))
        let status = mask.bytes.withUnsafeMutableBufferPointer { buffer in
            var selection = XIEventMask(deviceid: Self.corePointer, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XIGrabDevice(display, Self.corePointer, window, UInt(CurrentTime), 0, XIGrabModeAsync, XIGrabModeAsync,
                                0, &selection)
        }
        XSync(display, 0)
        return status == GrabSuccess
    }

    /// Ends `grabPointer`'s grab, as a menu closing does.
    public func ungrabPointer() {
        guard isConnected else { return }
        XIUngrabDevice(display, Self.corePointer, UInt(CurrentTime))
        XSync(display, 0)
    }

    /// Destroys the window and closes the connection. Safe to call twice.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if !connectionLoss.isLost {
            XDestroyWindow(display, window)
            XSync(display, 0)
        }
        Self.closeConnection(display)
    }

    private static func closeConnection(_ display: OpaquePointer) {
        XCloseDisplay(display)
        XErrorTrap.discardErrors(of: display)
        XConnectionLossGuard.forget(display)
    }

    // MARK: - Setting up

    private static func setWindowManagerHints(
        display: OpaquePointer, window: UInt, wmClass: (instance: String, className: String), title: String
    ) {
        let instance = strdup(wmClass.instance)
        let className = strdup(wmClass.className)
        defer {
            free(instance)
            free(className)
        }
        var hint = XClassHint(res_name: instance, res_class: className)
        XSetClassHint(display, window, &hint)
        XStoreName(display, window, title)
    }

    private static func selectInputEvents(display: OpaquePointer, window: UInt, touchAware: Bool, devices: Devices) {
        var types = [XI_KeyPress, XI_KeyRelease, XI_ButtonPress, XI_ButtonRelease, XI_Motion]
        if touchAware {
            types += [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd]
        }
        var mask = XI2EventMask(types.map(Int.init))
        mask.bytes.withUnsafeMutableBufferPointer { buffer in
            var selection = XIEventMask(
                deviceid: devices.xiDevice, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            _ = XISelectEvents(display, window, &selection, 1)
        }
    }

    private func waitUntilMapped() -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while isConnected {
            while XPending(display) > 0, isConnected {
                var event = XEvent()
                XNextEvent(display, &event)
                if event.type == MapNotify, event.xmap.window == window {
                    return true
                }
                record(&event)
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            waitForInput(upTo: remaining)
        }
        return false
    }

    // MARK: - Reading events

    private func synchronize() {
        guard isConnected else { return }
        XSync(display, 0)
        readQueuedEvents()
    }

    private func readQueuedEvents() {
        // XNextEvent on a lost connection would read an empty queue: check XPending first.
        while isConnected, XPending(display) > 0, isConnected {
            var event = XEvent()
            XNextEvent(display, &event)
            record(&event)
        }
    }

    private func waitForInput(upTo seconds: Double) {
        guard isConnected else { return }
        XFlush(display)
        guard XQLength(display) == 0 else { return }
        var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(max(1, min(seconds, 60) * 1000)))
    }

    private func record(_ event: inout XEvent) {
        guard event.type == GenericEvent, event.xcookie.extension == inputExtensionOpcode else { return }
        var cookie = event.xcookie
        guard XGetEventData(display, &cookie) != 0 else { return }
        defer { XFreeEventData(display, &cookie) }
        let kind = RecordedEventKind(xi2Type: cookie.evtype)
        if case .other = kind { return }
        guard let data = cookie.data else { return }
        let deviceEvent = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
        let valuators = Self.values(of: deviceEvent.valuators)
        let labels = valuatorLabels(of: deviceEvent.sourceid)
        let isKey = kind == .keyPress || kind == .keyRelease
        recorded.append(RecordedEvent(
            kind: kind,
            time: deviceEvent.time,
            deviceID: deviceEvent.deviceid,
            sourceID: deviceEvent.sourceid,
            detail: deviceEvent.detail,
            rootX: deviceEvent.root_x,
            rootY: deviceEvent.root_y,
            windowX: deviceEvent.event_x,
            windowY: deviceEvent.event_y,
            flags: deviceEvent.flags,
            buttonsHeld: Self.buttons(of: deviceEvent.buttons),
            modifiers: deviceEvent.mods.effective,
            valuators: valuators,
            valuatorLabels: labels.filter { valuators[$0.key] != nil },
            isSendEvent: deviceEvent.send_event != 0,
            keysymName: isKey ? keysymName(forKeycode: deviceEvent.detail, modifiers: deviceEvent.mods.effective,
                                           group: deviceEvent.group.effective) : nil))
    }

    /// XI2 sends only the set valuators, packed in mask-bit order.
    private static func values(of state: XIValuatorState) -> [Int: Double] {
        guard let mask = state.mask, let packed = state.values else { return [:] }
        var values: [Int: Double] = [:]
        var packedIndex = 0
        for axis in 0..<(Int(state.mask_len) * 8) where mask[axis / 8] & (1 << UInt8(axis % 8)) != 0 {
            values[axis] = packed[packedIndex]
            packedIndex += 1
        }
        return values
    }

    private static func buttons(of state: XIButtonState) -> [Int] {
        guard let mask = state.mask else { return [] }
        return (0..<(Int(state.mask_len) * 8)).filter { mask[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }
    }

    /// The axis labels of a device, asked once per device: its axes do not change while it exists.
    private func valuatorLabels(of deviceID: Int32) -> [Int: String] {
        if let cached = valuatorLabelsByDevice[deviceID] {
            return cached
        }
        var labels: [Int: String] = [:]
        _ = XErrorTrap.collectingErrors(on: display) {
            var count: Int32 = 0
            guard let devices = XIQueryDevice(display, deviceID, &count) else { return }
            defer { XIFreeDeviceInfo(devices) }
            for deviceIndex in 0..<Int(count) {
                let device = devices[deviceIndex]
                guard let classes = device.classes else { continue }
                for classIndex in 0..<Int(device.num_classes) {
                    guard let anyClass = classes[classIndex], anyClass.pointee.type == XIValuatorClass else { continue }
                    let valuator = UnsafeRawPointer(anyClass).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    guard valuator.label != 0, let name = XGetAtomName(display, valuator.label) else { continue }
                    labels[Int(valuator.number)] = String(cString: name)
                    XFree(name)
                }
            }
        }
        valuatorLabelsByDevice[deviceID] = labels
        return labels
    }

    /// The keysym an application reads for the key: its symbol in the event's keyboard group
    /// (layout), at the level the modifiers held with it choose (Shift, AltGr).
    private func keysymName(forKeycode keycode: Int32, modifiers: Int32, group: Int32) -> String? {
        guard let keycode = UInt8(exactly: keycode) else { return nil }
        // XKB's core state: the group in bits 13-14 beside the modifiers.
        let state = UInt32(truncatingIfNeeded: modifiers) & 0xff | (UInt32(truncatingIfNeeded: group) & 0x3) << 13
        var consumed: UInt32 = 0
        var keysym: KeySym = 0
        guard XkbLookupKeySym(display, keycode, state, &consumed, &keysym) != 0, keysym != 0,
              let name = XKeysymToString(keysym) else { return nil }
        return String(cString: name)
    }
}
