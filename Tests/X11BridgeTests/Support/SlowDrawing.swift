import CX11
import Foundation
import XorgTestSupport

/// Another client's request that keeps the server's main thread busy for a while: wide arcs
/// drawn into a pixmap, as many as one request holds, sized by a first drawing to last about
/// `lasting` seconds on this machine. The server's input thread reads the devices meanwhile.
final class SlowDrawing {
    private let display: OpaquePointer
    private let pixmap: Pixmap
    private let context: GC
    private var arcs: [XArc]
    private var sent: Date?

    init(displayName: String, lasting: Double) throws {
        guard let display = XOpenDisplay(displayName) else { throw RecorderWindowError.cannotOpenDisplay(displayName) }
        self.display = display
        let root = XDefaultRootWindow(display)
        let pixmap = XCreatePixmap(display, root, 2000, 2000, UInt32(XDefaultDepth(display, XDefaultScreen(display))))
        var values = XGCValues()
        values.line_width = 100
        guard let context = XCreateGC(display, pixmap, UInt(GCLineWidth), &values) else {
            XCloseDisplay(display)
            throw RecorderWindowError.cannotOpenDisplay("\(displayName): no graphics context")
        }
        self.pixmap = pixmap
        self.context = context
        // As many as fit one request of the core protocol's size (each arc 12 bytes).
        let count = min(20_000, (Int(XMaxRequestSize(display)) * 4 - 16) / 12)
        // A drawing's time is some fixed part and a part that grows with its arcs' size
        // (measured: 0.78 s at 300, 1.25 s at 600, 3.43 s at 1900): two drawings tell both, and
        // the size for `lasting` follows, within the pixmap.
        func timed(_ size: Int) -> Double {
            var trial = SlowDrawing.arcs(count: count, size: size)
            let started = Date()
            XDrawArcs(display, pixmap, context, &trial, Int32(trial.count))
            XSync(display, 0)
            return Date().timeIntervalSince(started)
        }
        let small = timed(300), large = timed(600)
        let perSize = max(1e-6, (large - small) / 300)
        let fixed = small - 300 * perSize
        arcs = SlowDrawing.arcs(count: count, size: min(1900, max(300, Int((lasting - fixed) / perSize))))
    }

    private static func arcs(count: Int, size: Int) -> [XArc] {
        (0..<count).map { index in
            XArc(x: Int16(index * 37 % 100), y: Int16(index * 53 % 100), width: UInt16(size - index % 50),
                 height: UInt16(size - index % 70), angle1: Int16(index % 360 * 64), angle2: 300 * 64)
        }
    }

    /// Sends the drawing and returns at once.
    func send() {
        XDrawArcs(display, pixmap, context, &arcs, Int32(arcs.count))
        XFlush(display)
        sent = Date()
    }

    /// Waits until the server has drawn it; how long that took from `send`.
    func waitUntilDrawn() -> Double {
        XSync(display, 0)
        return sent.map { Date().timeIntervalSince($0) } ?? 0
    }

    func close() {
        XFreeGC(display, context)
        XFreePixmap(display, pixmap)
        XCloseDisplay(display)
    }
}
