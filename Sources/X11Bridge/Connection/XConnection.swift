import CX11
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

    public let display: OpaquePointer
    public let displayName: String
    public let screenNumber: Int32
    public let root: Window
    /// The XInput extension's major opcode: generic events carrying it are XI2 events.
    public let xinputOpcode: Int32
    public let xinputVersion: (major: Int, minor: Int)
    public let hasXTest: Bool
    /// Whether the server went away; checked by the event loop after reading.
    public let loss: ConnectionLoss
    private var atomNames: [Atom: String] = [:]
    private var closed = false

    /// The minimum XInput version: raw touch events and touch ownership arrived in 2.2.
    public static let requiredXInput = (major: 2, minor: 2)

    private init(display: OpaquePointer, name: String, xinputOpcode: Int32, version: (Int, Int), hasXTest: Bool) {
        self.display = display
        self.displayName = name
        self.screenNumber = XDefaultScreen(display)
        self.root = XRootWindow(display, XDefaultScreen(display))
        self.xinputOpcode = xinputOpcode
        self.xinputVersion = version
        self.hasXTest = hasXTest
        self.loss = ConnectionLoss(displayName: name)
        loss.watch(display)
    }

    /// Opens `name` and checks XInput 2.2 (and XTest when required). Installs the error
    /// handler that collects errors instead of exiting, and the one that notes a lost connection
    /// (`loss`) instead of exiting.
    public static func open(name: String, requirements: Requirements) throws(BridgeSetupError) -> XConnection {
        XErrorLog.install()
        guard let display = XOpenDisplay(name) else {
            throw .cannotOpenDisplay(name)
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
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var xtestMajor: Int32 = 0
        var xtestMinor: Int32 = 0
        let hasXTest = XTestQueryExtension(display, &eventBase, &errorBase, &xtestMajor, &xtestMinor) != 0
        if requirements.xtest && !hasXTest {
            XCloseDisplay(display)
            throw .xtestMissing(display: name)
        }
        return XConnection(display: display, name: name, xinputOpcode: opcode,
                           version: (Int(major), Int(minor)), hasXTest: hasXTest)
    }

    deinit {
        close()
    }

    /// True once the server has gone away: nothing sent reaches it any more.
    public var isLost: Bool { loss.isLost }

    /// The descriptor to poll for incoming events.
    public var fileDescriptor: Int32 { XConnectionNumber(display) }

    /// The root window's size: the desktop that absolute devices are mapped onto.
    public var screenSize: ScreenSize {
        ScreenSize(width: Double(XDisplayWidth(display, screenNumber)), height: Double(XDisplayHeight(display, screenNumber)))
    }

    public func flush() {
        XFlush(display)
    }

    /// Waits until the server has processed every request, so errors caused by them have arrived.
    public func sync() {
        XSync(display, 0)
    }

    /// The protocol errors received since the last call.
    public func takeErrors() -> [XProtocolError] {
        XErrorLog.take(display: UInt(bitPattern: display))
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

    /// The next queued event, reading what the socket has without blocking; nil when there is none.
    public func nextPendingEvent() -> XEvent? {
        guard XPending(display) > 0 else { return nil }
        var event = XEvent()
        XNextEvent(display, &event)
        return event
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
        XCloseDisplay(display)
    }
}
