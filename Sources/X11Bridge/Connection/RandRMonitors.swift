import CX11
import GestureKit

/// The monitors of one screen through RandR 1.5 (`XRRGetMonitors`). Without RandR 1.5 the
/// layout is empty and everything uses the whole root window.
///
/// Lives on the Display's thread. Reading costs two round trips, so callers read once at start
/// and again when the screen changes, never per sample.
struct RandRMonitors {
    let display: OpaquePointer
    let root: Window
    /// RandR's first event code; nil when the server has no RandR 1.5.
    let eventBase: Int32?

    /// RandR 1.5 brought monitors.
    static let requiredVersion = (major: 1, minor: 5)

    /// On the connection's screen.
    init(connection: XConnection) {
        self.init(display: connection.display, root: connection.root)
    }

    init(display: OpaquePointer, root: Window) {
        self.display = display
        self.root = root
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XRRQueryExtension(display, &eventBase, &errorBase) != 0,
              XRRQueryVersion(display, &major, &minor) != 0,
              (Int(major), Int(minor)) >= Self.requiredVersion else {
            self.eventBase = nil
            return
        }
        self.eventBase = eventBase
    }

    /// Asks for RRScreenChangeNotify on the root: a mode, rotation or size change. Monitors
    /// added, moved or deleted send the root a ConfigureNotify instead (StructureNotifyMask).
    func selectChanges() {
        guard eventBase != nil else { return }
        XRRSelectInput(display, root, Int32(RRScreenChangeNotifyMask))
    }

    /// Whether an event with `code` is RandR's screen change.
    func isScreenChange(code: UInt8) -> Bool {
        guard let eventBase else { return false }
        return Int32(code) == eventBase + Int32(RRScreenChangeNotify)
    }

    /// The active monitors now, in RandR's order.
    func read() -> MonitorLayout {
        guard eventBase != nil else { return .none }
        var count: Int32 = 0
        guard let infos = XRRGetMonitors(display, root, 1, &count) else { return .none }
        defer { XRRFreeMonitors(infos) }
        let entries = UnsafeBufferPointer(start: infos, count: Int(max(count, 0)))
        var atoms = entries.map(\.name)
        let names = Self.names(of: &atoms, display: display)
        return MonitorLayout(zip(entries, names).compactMap { info, name in
            guard info.width > 0, info.height > 0 else { return nil }
            return Monitor(name: name, frame: ScreenRect(x: Int(info.x), y: Int(info.y), width: Int(info.width), height: Int(info.height)),
                           widthMillimeters: Int(max(info.mwidth, 0)), heightMillimeters: Int(max(info.mheight, 0)),
                           isPrimary: info.primary != 0)
        })
    }

    /// Every atom's name in one round trip; an atom the server does not know is named by its number.
    private static func names(of atoms: inout [Atom], display: OpaquePointer) -> [String] {
        guard !atoms.isEmpty else { return [] }
        var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: atoms.count)
        let status = XGetAtomNames(display, &atoms, Int32(atoms.count), &names)
        defer { for name in names { if let name { XFree(name) } } }
        return zip(atoms, names).map { atom, name in
            guard status != 0, let name else { return "monitor-\(atom)" }
            return String(cString: name)
        }
    }
}
