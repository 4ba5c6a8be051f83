import CX11
import GestureKit

/// The desktop's scale as its X resources tell it (`Xft.dpi` in the root's RESOURCE_MANAGER,
/// which `xrdb` and the desktops' scale settings write): the feedback is drawn at it, and the
/// gestures' pixel distances follow it (`DesktopScale`).
enum DesktopResources {
    /// `Xft.dpi` as Xlib read it when `display` opened (no round trip); nil when unset.
    static func openingDPI(display: OpaquePointer) -> Double? {
        XResourceManagerString(display).flatMap { dpi(in: String(cString: $0)) }
    }

    /// `Xft.dpi` read from the root's RESOURCE_MANAGER now (a round trip; Xlib's copy is the one
    /// it took when the display opened); nil when unset.
    static func readDPI(display: OpaquePointer, root: Window) -> Double? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, root, Atom(XA_RESOURCE_MANAGER), 0, 1 << 20, 0, Atom(XA_STRING),
                                        &type, &format, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 8, let data else { return nil }
        return dpi(in: String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self))
    }

    /// The `Xft.dpi` resource in X resources text (`xrdb -query`'s format); nil when it is
    /// absent or not a positive number.
    static func dpi(in resources: String) -> Double? {
        func trimmed(_ text: Substring) -> Substring {
            var text = text.drop { $0 == " " || $0 == "\t" }
            while text.last == " " || text.last == "\t" { text = text.dropLast() }
            return text
        }
        var found: Double?
        for line in resources.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":"), trimmed(line[..<colon]) == "Xft.dpi" else { continue }
            // The last definition wins, as in xrdb.
            found = Double(trimmed(line[line.index(after: colon)...])).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        }
        return found
    }
}

extension XConnection {
    /// The desktop's scale as its X resources say it now (`Xft.dpi`; a round trip).
    public var desktopScale: DesktopScale {
        .requested(resourceDPI: DesktopResources.readDPI(display: display, root: root))
    }
}
