import CX11
import Glibc
import GestureKit

/// One connection to the X server, with the extensions the bridge needs checked.
///
/// Xlib is not thread-safe without XInitThreads and the Display must stay on the thread that
/// opened it, so this class is deliberately not Sendable: create it, and everything built on
/// it, on the thread that runs the event loop.
public final class XConnection {
    /// What the caller needs from the server beyond XInput 2.2.
    public struct Requirements: Sendable, Hashable {
        /// Sending input (clicks, keys); `--dry-run` and `record` do without.
        public var xtest: Bool

        public init(xtest: Bool) {
            self.xtest = xtest
        }
    }

    /// Xlib's handle: it stays inside this module, whose types make every call the rest of
    /// the program needs (the overlay is made from the connection, `FeedbackOverlay(connection:)`).
    let display: OpaquePointer
    /// The same connection seen through XCB, which owns its event queue: requests go through
    /// Xlib, events are read through XCB (`nextEvent`).
    let xcb: OpaquePointer
    public let displayName: String
    public let screenNumber: Int32
    public let root: Window
    /// The XInput extension's major opcode: generic events carrying it are XI2 events.
    public let xinputOpcode: Int32
    public let xinputVersion: (major: Int, minor: Int)
    /// The XInput extension's first event code: its XI1 events (a device's button map changed,
    /// `DeviceMappingNotify`) are numbered from it.
    let xinputFirstEvent: UInt8
    public let hasXTest: Bool
    /// XKB's event code, nil without XKB: Xlib keeps its keymap from XKB's events, which the
    /// bridge reads through XCB and must pass on (`refreshKeymap`).
    public let xkbEventCode: UInt8?
    /// Whether the server went away; checked by the event loop after reading.
    public let loss: ConnectionLoss
    /// The button map the bridge's own clicks go through: the XTEST pointer's, then its master's
    /// (`ButtonMap.then`), kept by `InputListener`. XTest sends a physical button of the XTEST
    /// pointer, so a click of the logical button `b` sends `outputButtons.physical(of: b)`.
    var outputButtons = ButtonMap.identity
    private var atomNames: [Atom: String] = [:]
    private var closed = false
    /// Events taken out of XCB's queue while looking for errors (`sync`), in arrival order;
    /// `nextEvent` hands them out before anything newer.
    private var setAside: [UnsafeMutablePointer<xcb_generic_event_t>] = []

    /// How many screens the server has (a root window each); the bridge covers `screenNumber`.
    public var screenCount: Int { Int(XScreenCount(display)) }

    /// What a person should know of a server with several screens (one per monitor, each its
    /// own root window, as a multi-seat or "Zaphod" setup makes); nil for one. Found in review:
    /// the bridge covered one and said nothing.
    public var otherScreensAdvice: String? {
        guard screenCount > 1 else { return nil }
        return "the X server has \(screenCount) screens, each its own desktop: the bridge covers screen \(screenNumber) " +
            "(DISPLAY=\(displayName)) alone; presses and touches on the others reach their applications as without it, " +
            "and a device mapped to another screen is read as on this one"
    }

    /// The minimum XInput version: raw touch events and touch ownership arrived in 2.2.
    public static let requiredXInput = (major: 2, minor: 2)

    private init(display: OpaquePointer, name: String, xinputOpcode: Int32, xinputFirstEvent: UInt8, version: (Int, Int),
                 hasXTest: Bool, xkbEventCode: UInt8?) {
        self.display = display
        self.xcb = XGetXCBConnection(display)
        self.fileDescriptor = XConnectionNumber(display)
        self.displayName = name
        self.screenNumber = XDefaultScreen(display)
        self.root = XRootWindow(display, XDefaultScreen(display))
        self.xinputOpcode = xinputOpcode
        self.xinputVersion = version
        self.xinputFirstEvent = xinputFirstEvent
        self.hasXTest = hasXTest
        self.xkbEventCode = xkbEventCode
        self.loss = ConnectionLoss(displayName: name)
        loss.watch(display)
    }

    /// Why `name` (`:1.2`, `host:1.2`) did not open when its display opens without the screen
    /// number and has no such screen; nil else. Found in review: a screen number the server
    /// does not have (a typo, a nested server started with one screen) was told to check that
    /// the server runs and may be connected to, which it did and could.
    private static func noSuchScreen(in name: String) -> BridgeSetupError? {
        guard let colon = name.lastIndex(of: ":"), let dot = name[colon...].lastIndex(of: "."),
              let screen = Int(name[name.index(after: dot)...]) else { return nil }
        let base = String(name[..<dot])
        guard let display = XOpenDisplay(base) else { return nil }
        defer { XCloseDisplay(display) }
        let screens = Int(XScreenCount(display))
        return screen >= screens ? .noSuchScreen(display: base, screen: screen, screens: screens) : nil
    }

    /// Opens `name` and checks XInput 2.2 (and XTest when required). Installs the error
    /// handler that collects errors instead of exiting, and the one that notes a lost connection
    /// (`loss`) instead of exiting.
    public static func open(name: String, requirements: Requirements) throws(BridgeSetupError) -> XConnection {
        XErrorLog.install()
        guard let display = XOpenDisplay(name) else {
            throw noSuchScreen(in: name) ?? .cannotOpenDisplay(name)
        }
        // Before anything can arrive: from here on Xlib leaves events in XCB's queue, where
        // `nextEvent` reads them. Xlib asks XCB to keep its requests' errors for it (instead of
        // queueing them as events, where Xlib would no longer look) only when it next takes
        // the socket from XCB, so one XCB request makes it hand the socket back now: after it,
        // every error reaches Xlib's error handler, that of a request with a reply in that
        // reply's wait, the others in the next round trip (`sync`).
        XSetEventQueueOwner(display, XCBOwnsEventQueue)
        let xcb = XGetXCBConnection(display)
        xcb_discard_reply(xcb, xcb_get_input_focus(xcb).sequence)
        if let sign = xwaylandSign(display) {
            XCloseDisplay(display)
            throw .xwaylandServer(display: name, sign: sign)
        }
        var opcode: Int32 = 0
        var firstEvent: Int32 = 0
        var firstError: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &firstEvent, &firstError) != 0 else {
            XCloseDisplay(display)
            throw .xinputMissing(display: name)
        }
        // Announcing 2.2 is what makes the server send touch events to this client at all.
        var major = Int32(requiredXInput.major)
        var minor = Int32(requiredXInput.minor)
        let status = XIQueryVersion(display, &major, &minor)
        if status != Success || (Int(major), Int(minor)) < requiredXInput {
            XCloseDisplay(display)
            throw .xinputTooOld(display: name, major: Int(major), minor: Int(minor))
        }
        if let sign = xwaylandDeviceSign(display) {
            XCloseDisplay(display)
            throw .xwaylandServer(display: name, sign: sign)
        }
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var xtestMajor: Int32 = 0
        var xtestMinor: Int32 = 0
        let hasXTest = XTestQueryExtension(display, &eventBase, &errorBase, &xtestMajor, &xtestMinor) != 0
        if requirements.xtest && !hasXTest {
            XCloseDisplay(display)
            throw .xtestMissing(display: name)
        }
        var xkbOpcode: Int32 = 0
        var xkbEvent: Int32 = 0
        var xkbError: Int32 = 0
        let hasXKB = XQueryExtension(display, "XKEYBOARD", &xkbOpcode, &xkbEvent, &xkbError) != 0
        return XConnection(display: display, name: name, xinputOpcode: opcode,
                           xinputFirstEvent: UInt8(truncatingIfNeeded: firstEvent), version: (Int(major), Int(minor)), hasXTest: hasXTest,
                           xkbEventCode: hasXKB ? UInt8(exactly: xkbEvent) : nil)
    }

    /// What shows the server is Xwayland, the X server of a Wayland session (which the
    /// environment need not say: over ssh, under sudo, in a service's environment): its own
    /// extension (Xwayland 23 and later), or RandR outputs it names `XWAYLAND0`, `XWAYLAND1`...
    /// Nil for any other server.
    static func xwaylandSign(_ display: OpaquePointer) -> String? {
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        if XQueryExtension(display, "XWAYLAND", &opcode, &event, &error) != 0 { return "it has the XWAYLAND extension" }
        let monitors = RandRMonitors(display: display, root: XDefaultRootWindow(display)).read()
        if let monitor = monitors.monitors.first(where: { $0.name.hasPrefix("XWAYLAND") }) {
            return "its monitor is \(monitor.name)"
        }
        return nil
    }

    /// Xwayland's input devices (`xwayland-pointer:13`, `xwayland-tablet stylus:13`...): the
    /// sign an Xwayland before 23.1 gives with no monitor named yet (its compositor without an
    /// output, or RandR off). Found in review of a Wayland user's week: there it passed for an
    /// X11 session. Asked once XInput 2.2 is announced.
    static func xwaylandDeviceSign(_ display: OpaquePointer) -> String? {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return nil }
        defer { XIFreeDeviceInfo(devices) }
        for index in 0..<Int(count) {
            guard let name = devices[index].name.map({ String(cString: $0) }), name.hasPrefix("xwayland-") else { continue }
            return "its input device \(name) is Xwayland's"
        }
        return nil
    }

    deinit {
        close()
    }

    /// True once the server has gone away: nothing sent reaches it any more.
    public var isLost: Bool { loss.isLost }

    /// The descriptor to poll for incoming events.
    public let fileDescriptor: Int32

    /// The root window's size now, asked of the server (`RootGeometry`): the desktop that
    /// absolute devices are mapped onto.
    public var screenSize: ScreenSize {
        let size = RootGeometry.size(display: display, screen: screenNumber, root: root)
        return ScreenSize(width: Double(size.width), height: Double(size.height))
    }

    /// Sends the requests Xlib holds. Reads nothing: with XCB owning the event queue, Xlib's
    /// flush does not look for events, and XCB writes only when there is something to write.
    public func flush() {
        XFlush(display)
    }

    /// Waits until the server has processed every request, so errors caused by them have arrived
    /// (and are in `takeErrors`).
    public func sync() {
        XSync(display, 0)
        setAsideQueued()
    }

    /// The protocol errors received since the last call.
    public func takeErrors() -> [XProtocolError] {
        setAsideQueued()
        return XErrorLog.take(display: UInt(bitPattern: display))
    }

    /// Runs `body`'s queries about devices, each a round trip, any of which may find its device
    /// gone (a dock plugged or a hub reset removes devices one after another while the list is
    /// read). Such a refusal says only that: the query answers nothing, the hierarchy event
    /// that follows tells of the loss, and it is dropped rather than taken for a fault that
    /// lets go of what the bridge holds. Queries only: a request that changes something keeps
    /// its errors.
    public func queryingDevices<Result>(_ body: () -> Result) -> Result {
        let first = nextRequestSerial
        let result = body()
        XErrorLog.discard(display: UInt(bitPattern: display), serials: first..<nextRequestSerial)
        return result
    }

    /// Sends the requests in `body`, waits for the server, and returns the errors they caused.
    public func checked(_ body: () -> Void) -> [XProtocolError] {
        sync()
        let earlier = takeErrors()
        body()
        sync()
        let caused = takeErrors()
        // Errors of earlier requests are not this body's; put them back for the event loop.
        for error in earlier { XErrorLog.record(error, display: UInt(bitPattern: display)) }
        return caused
    }

    /// The next event, oldest first; nil when there is none. `reading` lets it read the socket
    /// once if nothing is queued (a wakeup that found the descriptor readable); without it, only
    /// what was already read is returned, so draining after that costs no system call. An error
    /// met on the way (none is expected: Xlib has XCB keep its requests' errors for it) goes to
    /// `takeErrors` rather than being taken for an event. A broken connection sets `isLost`.
    public func nextEvent(reading: Bool) -> XCBEvent? {
        var mayRead = reading
        while true {
            let next: UnsafeMutablePointer<xcb_generic_event_t>?
            if !setAside.isEmpty {
                next = setAside.removeFirst()
            } else if mayRead {
                mayRead = false
                next = xcb_poll_for_event(xcb)
            } else {
                next = xcb_poll_for_queued_event(xcb)
            }
            guard let next else {
                if xcb_connection_has_error(xcb) != 0 { loss.noteBroken() }
                return nil
            }
            if next.pointee.response_type == 0 {
                recordError(next)
                continue
            }
            return XCBEvent(taking: next)
        }
    }

    /// Whether events were read but not yet taken with `nextEvent`, or errors are waiting in
    /// `takeErrors` (a flush or a reply can read them in without the socket showing anything more).
    public var hasPendingInput: Bool {
        setAsideQueued()
        return !setAside.isEmpty || XErrorLog.hasErrors(display: UInt(bitPattern: display))
    }

    /// Whether the socket holds bytes not read yet. A read that took in part of an event brings
    /// no event, though more waits: XCB reads at most its buffer (4 KB) at a time.
    public var socketHasBytes: Bool {
        var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// Whether the server runs on this machine (the connection is a local socket): its
    /// timestamps then come from the same monotonic clock as the bridge's.
    public var isLocal: Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fileDescriptor, $0, &length) }
        }
        return named == 0 && Int32(address.ss_family) == AF_UNIX
    }

    /// The serial the next request will carry: an error names the request it answers by it.
    public var nextRequestSerial: UInt {
        XNextRequest(display)
    }

    /// Requests sent that no reply has confirmed yet. Xlib keeps a record of each until a round
    /// trip collects their errors, so a long run of requests without one grows it.
    public var unconfirmedRequests: UInt {
        XNextRequest(display) &- 1 &- XLastKnownRequestProcessed(display)
    }

    /// Reloads Xlib's keymap after XKB reported a new keyboard or a changed map, as Xlib's own
    /// event reading would; events read through XCB bypass it. Without it, keysyms would be
    /// looked up on the old map after a layout switch.
    public func refreshKeymap() {
        guard let xkbEventCode else { return }
        var event = XkbEvent()
        event.any.type = Int32(xkbEventCode)
        event.any.display = display
        event.any.xkb_type = XkbNewKeyboardNotify
        XkbRefreshKeyboardMapping(&event.map)
    }

    /// Moves what XCB has queued into `setAside`, recording the errors among it.
    private func setAsideQueued() {
        while let next = xcb_poll_for_queued_event(xcb) {
            if next.pointee.response_type == 0 {
                recordError(next)
            } else {
                setAside.append(next)
            }
        }
    }

    /// Records an error from XCB's queue the way Xlib's error handler records its own, and frees it.
    private func recordError(_ pointer: UnsafeMutablePointer<xcb_generic_event_t>) {
        defer { free(pointer) }
        let error = UnsafeRawPointer(pointer).assumingMemoryBound(to: xcb_generic_error_t.self).pointee
        XErrorLog.record(XProtocolError(errorCode: Int(error.error_code), requestCode: Int(error.major_code),
                                        minorCode: Int(error.minor_code), resource: UInt(error.resource_id),
                                        serial: UInt(error.full_sequence),
                                        text: XErrorLog.text(display: display, code: Int32(error.error_code))),
                         display: UInt(bitPattern: display))
    }

    /// An atom's name, cached: device valuator labels repeat across devices and queries.
    public func atomName(_ atom: Atom) -> String? {
        guard atom != 0 else { return nil }
        if let known = atomNames[atom] { return known }
        guard let raw = XGetAtomName(display, atom) else { return nil }
        let name = String(cString: raw)
        XFree(raw)
        atomNames[atom] = name
        return name
    }

    public func close() {
        guard !closed else { return }
        closed = true
        _ = takeErrors()
        for pointer in setAside { free(pointer) }
        setAside = []
        XCloseDisplay(display)
    }
}
