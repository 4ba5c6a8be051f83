import GestureKit

/// The on-screen feedback on X11: the pulse of a deep press, the progress ring of a force
/// approaching its threshold, and the touch view of every active contact.
///
/// Each effect is its own small override-redirect window around the gesture, click-through
/// and never focused. With a compositor running, the windows are ARGB and fade by alpha;
/// without one they are ordinary windows shaped to the drawing, fading by dithering their
/// shape, since an ARGB window without a compositor would show as a black box.
///
/// Not Sendable: create, use and close it on the thread that owns the Display. It never
/// reads events from the Display and never closes it; it flushes its own requests.
///
/// Times are the engine's seconds. The runtime passes the engine's `.feedback` outputs to
/// `show`, adds `nextDeadline` to its poll timeout and calls `tick` once that time has come;
/// with nothing animating `nextDeadline` is nil, so an idle bridge has no wakeups.
public final class FeedbackOverlay {
    /// The pulse's frame rate where a compositor blends the windows.
    public static let frameInterval = 1.0 / 60
    /// The pulse's frame rate without a compositor. Each frame there reshapes a window with a
    /// dithered mask, which the server turns into a region of many small rectangles and clips
    /// every window beneath against: at 60 a second, a burst of presses stalls the server
    /// (BENCHMARKS.md, "The pulse without a compositor"). Twenty frames still show the ring
    /// grow and dissolve.
    public static let shapedFrameInterval = 1.0 / 20
    /// At most this many pulses run at once; a new one takes the place of the oldest. Presses
    /// faster than a pulse lasts would otherwise stack up windows to reshape.
    public static let maximumPulses = 3

    private let resources: OverlayResources
    /// The config's look; the screen's scale is folded in (`style`).
    public var look = FeedbackLook.standard

    private var pulses: [RunningPulse] = []
    private var rings: [ContactKey: ShownRing] = [:]
    private var markers: [ContactKey: ShownMarker] = [:]
    private var closed = false
    /// When the overlay last looked whether the compositor is still there (engine time).
    private var lookedForCompositor = -Double.infinity
    /// The serials of the overlay's recent requests, in stretches, oldest first: an X error
    /// in one answers the overlay (its window destroyed by another client, a pixmap the server
    /// had no memory for), never the input. An error comes back within a round trip; the
    /// stretches kept span seconds of frames.
    /// `takingDown`: the requests that took every window down after an error (`absorb`),
    /// whose own errors (a window destroyed already) need nothing more.
    private var sent: [(serials: Range<UInt>, takingDown: Bool)] = []
    private static let keptStretches = 256

    /// Checks the extensions the overlay needs (XFixes 2, Shape 1.1) on the connection's
    /// screen, where it draws. Creates no windows until there is something to show.
    public convenience init(connection: XConnection) throws(OverlayError) {
        try self.init(display: connection.display, screen: connection.screenNumber)
        loss = connection.loss
    }

    /// The connection's loss, once known: from then on the overlay sends nothing (`sending`).
    private var loss: ConnectionLoss?

    /// The overlay on `display`'s `screen` (a test's own connection).
    convenience init(display: OpaquePointer, screen: Int32) throws(OverlayError) {
        try self.init(display: display, screen: screen, compositorCheckInterval: 0.5)
    }

    init(display: OpaquePointer, screen: Int32, compositorCheckInterval: Double) throws(OverlayError) {
        resources = try OverlayResources(display: display, screen: screen, compositorCheckInterval: compositorCheckInterval)
    }

    /// The screen's scale at `point`: the DPI the desktop asks for (`Xft.dpi`, what toolkits
    /// scale by) over 96; without it, the physical DPI of the monitor under the point over 96
    /// to the nearest quarter, so an effect is about the same size in millimetres on every
    /// monitor; 1 when neither is known.
    /// The rule is `DesktopScale`'s, which the engine's gesture distances follow too.
    func screenScale(at point: Point) -> Double {
        DesktopScale.desktop(resourceDPI: resources.resourceDPI).factor(at: point, monitors: monitors)
    }

    /// The look of an effect centred at `point`.
    private func style(at point: Point) -> OverlayStyle {
        OverlayStyle(look: look, screenScale: screenScale(at: point))
    }

    /// Shows one of the engine's feedback outputs; `now` is the engine time it arrived at.
    public func show(_ feedback: Feedback, now: Double) {
        guard !closed else { return }
        // A window shown now looks for the compositor as it is made.
        lookedForCompositor = Swift.max(lookedForCompositor, now)
        sending {
            fallBackIfCompositorLeft()
            switch feedback {
            case .pulse(_, let point, let time):
                startPulse(at: point, time: time, now: now)
            case .progress(let key, let point, let fraction):
                showProgress(key, at: point, fraction: fraction, now: now)
            case .progressEnded(let key):
                rings.removeValue(forKey: key)?.window.destroy()
            }
            resources.flush()
        }
    }

    /// When the next animation frame is due, or the next look for the compositor while a
    /// translucent window is up (`compositorLookDue`); nil when nothing is shown.
    public var nextDeadline: Double? {
        // Asked twice on every wakeup: no array.
        var earliest = pulses.lazy.map(\.nextFrame).min()
        for shown in rings.values where shown.pending != nil {
            earliest = Swift.min(earliest ?? .infinity, shown.nextFrame)
        }
        for shown in markers.values where shown.pending != nil {
            earliest = Swift.min(earliest ?? .infinity, shown.nextFrame)
        }
        if let look = compositorLookDue { earliest = Swift.min(earliest ?? .infinity, look) }
        return earliest
    }

    /// While a translucent window is up, when to look again whether the compositor is still
    /// there: a ring held still (a finger resting on the volume knob) draws nothing, and a
    /// compositor quitting under it would leave a black box until the contact moved.
    private var compositorLookDue: Double? {
        let translucent = rings.values.contains { $0.window.visual.isTranslucent }
            || markers.values.contains { $0.window.visual.isTranslucent } || pulses.contains { $0.window.visual.isTranslucent }
        return translucent ? lookedForCompositor + resources.compositorCheckInterval : nil
    }

    /// Draws the frames due at `now`, takes down finished pulses, and shows the force rings'
    /// latest values held back for their frame; looks for the compositor when that is due.
    public func tick(now: Double) {
        guard !closed else { return }
        if let look = compositorLookDue, now >= look {
            lookedForCompositor = now
            sending { fallBackIfCompositorLeft(lookingNow: true) }
        }
        guard !pulses.isEmpty || rings.values.contains(where: { $0.pending != nil })
            || markers.values.contains(where: { $0.pending != nil }) else { return }
        sending { drawFrames(now: now) }
    }

    private func drawFrames(now: Double) {
        fallBackIfCompositorLeft()
        for (key, shown) in rings {
            guard let pending = shown.pending, now >= shown.nextFrame else { continue }
            draw(pending, for: key, now: now)
        }
        for (key, shown) in markers {
            guard let pending = shown.pending, now >= shown.nextFrame else { continue }
            draw(pending, for: key, now: now)
        }
        var running: [RunningPulse] = []
        for var current in pulses {
            let end = current.start + current.animation.duration
            guard now < end, let frame = current.animation.frame(atElapsed: now - current.start) else {
                current.window.destroy()
                continue
            }
            if now >= current.nextFrame {
                current.window.present(RunningPulse.shapes(of: frame, around: current.center, color: current.color), raising: false)
                current.nextFrame = min(now + Self.frameInterval(of: current.window), end)
            }
            running.append(current)
        }
        pulses = running
        resources.flush()
    }

    /// The touch view: one circle per active contact, sized and labelled by its force.
    /// Pass every active contact each time, `now` on the engine's clock; contacts left out are
    /// taken off the screen at once. A circle that changes is redrawn at most once a frame (as
    /// the force ring: a shaped window's every redraw makes the server reshape every window
    /// beneath), its latest state drawn when its frame comes (`tick`). Found in review: redrawn
    /// at every sample, five fingers at 120 Hz kept Xorg busy for seconds, the circles trailing
    /// 11 s behind, and a deep press right-clicked 6 s late.
    public func showContacts(_ contacts: [ActiveContact], now: Double) {
        guard !closed else { return }
        sending { showMarkers(contacts, now: now) }
    }

    private func showMarkers(_ contacts: [ActiveContact], now: Double) {
        fallBackIfCompositorLeft()
        var active: Set<ContactKey> = []
        for contact in contacts {
            guard let position = Self.usable(contact.position) else { continue }
            active.insert(contact.key)
            let marker = ContactMarker(center: position, force: contact.force, scale: style(at: position).scale,
                                       visibleTop: Double(resources.visibleArea(at: position).y))
            if let shown = markers[contact.key] {
                guard shown.marker != marker else {
                    markers[contact.key]?.pending = nil
                    continue
                }
                guard now >= shown.nextFrame else {
                    markers[contact.key]?.pending = marker
                    continue
                }
                draw(marker, for: contact.key, now: now)
            } else if let window = newWindow(around: position, halfSize: marker.halfSize) {
                window.present(marker.shapes)
                markers[contact.key] = ShownMarker(marker: marker, window: window, nextFrame: now + Self.frameInterval(of: window))
            }
        }
        for key in markers.keys where !active.contains(key) {
            markers.removeValue(forKey: key)?.window.destroy()
        }
        resources.flush()
    }

    /// Redraws a shown circle as `marker`, or takes it down where no monitor shows its place.
    private func draw(_ marker: ContactMarker, for key: ContactKey, now: Double) {
        guard let shown = markers[key] else { return }
        guard let frame = frame(around: marker.center, halfSize: marker.halfSize) else {
            shown.window.destroy()
            markers[key] = nil
            return
        }
        shown.window.move(to: frame)
        shown.window.present(marker.shapes)
        markers[key] = ShownMarker(marker: marker, window: shown.window, nextFrame: now + Self.frameInterval(of: shown.window))
    }

    /// The monitors feedback is cut to, as last read (RandR 1.5; empty without it). Each
    /// monitor tells its physical DPI (`Monitor.dpi`).
    public var monitors: MonitorLayout { resources.monitors }

    /// `Xft.dpi` from the X resources (RESOURCE_MANAGER), as last read; nil when unset.
    public var resourceDPI: Double? { resources.resourceDPI }

    /// The desktop's X resources changed: its scale (`Xft.dpi`) is read again, for effects
    /// shown from now on.
    public func resourcesChanged() {
        guard !closed else { return }
        resources.readResources()
    }

    /// The screen changed: effects shown from now on, and those that move, are cut to the
    /// monitor under them in `monitors`. Asks the server nothing.
    public func screenChanged(_ screen: ScreenSize, monitors: MonitorLayout) {
        resources.screenChanged(screen, monitors: monitors)
    }

    /// Takes every window down and frees the server resources. The Display stays open; call
    /// this before closing it. Later calls do nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        sending {
            takeDown()
            resources.release()
            resources.flush()
        }
    }

    public func absorb(_ errors: [XProtocolError]) -> [XProtocolError] {
        var rest: [XProtocolError] = []
        var failed = false
        for error in errors {
            guard let stretch = sent.last(where: { $0.serials.contains(error.serial) }) else {
                rest.append(error)
                continue
            }
            failed = failed || !stretch.takingDown
        }
        guard failed, !closed else { return rest }
        // Whatever failed, every window starts afresh: what is shown now comes back with its
        // next frame or value (a ring with its contact's next force). Taking down a window
        // another client destroyed fails too; that error needs nothing more.
        sending(takingDown: true) {
            takeDown()
            resources.flush()
        }
        return rest
    }

    /// Takes every window down.
    private func takeDown() {
        for running in pulses { running.window.destroy() }
        pulses.removeAll()
        for shown in rings.values { shown.window.destroy() }
        rings.removeAll()
        for shown in markers.values { shown.window.destroy() }
        markers.removeAll()
    }

    /// Runs `body`, noting the serials of the requests it sends (`sent`).
    private func sending(takingDown: Bool = false, _ body: () -> Void) {
        // Xlib keeps a lost connection's requests in its buffer, and a request that would
        // overflow it crashes inside Xlib (found in review: the bridge, drawing as the server
        // went, died of a bad pointer instead of exiting with status 69).
        guard loss?.isLost != true else { return }
        let start = resources.nextRequestSerial
        body()
        let end = resources.nextRequestSerial
        guard end > start else { return }
        if let last = sent.last, last.serials.upperBound == start, last.takingDown == takingDown {
            sent[sent.count - 1].serials = last.serials.lowerBound..<end
        } else {
            sent.append((start..<end, takingDown))
            if sent.count > Self.keptStretches { sent.removeFirst(sent.count - Self.keptStretches) }
        }
    }

    /// ARGB windows whose compositor has quit would show as black boxes: rebuild them as
    /// shaped 24-bit windows. A window nobody updates keeps its visual until it goes.
    private func fallBackIfCompositorLeft(lookingNow: Bool = false) {
        let windows = pulses.map(\.window) + rings.values.map(\.window) + markers.values.map(\.window)
        let translucent = windows.filter { $0.visual.isTranslucent }
        guard !translucent.isEmpty, lookingNow ? !resources.compositorIsRunning : resources.compositorHasLeft() else { return }
        for window in translucent {
            window.rebuild(on: resources.opaqueVisual)
        }
    }

    private func startPulse(at point: Point, time: Double, now: Double) {
        guard let center = Self.usable(point), time.isFinite, now.isFinite else { return }
        // The pulse runs on the time the gesture happened; a report from the future (a clock
        // step) starts now instead of hanging still.
        let start = min(time, now)
        let style = style(at: center)
        let pulse = PulseAnimation(style: style)
        guard let frame = pulse.frame(atElapsed: now - start),
              let window = newWindow(around: center, halfSize: pulse.extent) else { return }
        window.present(RunningPulse.shapes(of: frame, around: center, color: style.accent))
        while pulses.count >= Self.maximumPulses {
            pulses.removeFirst().window.destroy()
        }
        pulses.append(RunningPulse(center: center, start: start, animation: pulse, color: style.accent, window: window,
                                   nextFrame: min(now + Self.frameInterval(of: window), start + pulse.duration)))
    }

    private static func frameInterval(of window: OverlayWindow) -> Double {
        window.visual.isTranslucent ? frameInterval : shapedFrameInterval
    }

    /// A force ring: drawn at once when it is new or its frame has come; else its latest value
    /// waits for its frame (`tick`). A pen reports its force hundreds of times a second, and
    /// without a compositor each drawing reshapes the window, which the server pays for with
    /// every window beneath (the pulse's reason for `shapedFrameInterval`).
    private func showProgress(_ key: ContactKey, at point: Point, fraction: Double, now: Double) {
        guard let center = Self.usable(point) else { return }
        let ring = ProgressRing(center: center, fraction: fraction, style: style(at: center))
        if let shown = rings[key] {
            guard shown.ring != ring else {
                rings[key]?.pending = nil
                return
            }
            guard now >= shown.nextFrame else {
                rings[key]?.pending = ring
                return
            }
            draw(ring, for: key, now: now)
        } else if let window = newWindow(around: center, halfSize: ring.halfSize) {
            window.present(ring.shapes)
            rings[key] = ShownRing(ring: ring, window: window, nextFrame: now + Self.frameInterval(of: window))
        }
    }

    /// Draws the ring of `key`'s window anew, moved to `ring`'s place.
    private func draw(_ ring: ProgressRing, for key: ContactKey, now: Double) {
        guard let shown = rings[key] else { return }
        guard let frame = frame(around: ring.center, halfSize: ring.halfSize) else {
            rings.removeValue(forKey: key)?.window.destroy()
            return
        }
        shown.window.move(to: frame)
        shown.window.present(ring.shapes)
        rings[key] = ShownRing(ring: ring, window: shown.window, nextFrame: now + Self.frameInterval(of: shown.window))
    }

    private func newWindow(around center: Point, halfSize: Int) -> OverlayWindow? {
        guard let frame = frame(around: center, halfSize: halfSize) else { return nil }
        return OverlayWindow(resources: resources, frame: frame)
    }

    /// The effect's square, cut to the monitor under its center (`OverlayResources.visibleArea`):
    /// an effect at a monitor's edge gets a window only as large as what shows on that monitor.
    private func frame(around center: Point, halfSize: Int) -> ScreenRect? {
        ScreenRect.square(around: center, halfSize: halfSize).intersection(resources.visibleArea(at: center))
    }

    /// A position that whole-pixel window geometry can hold, or nil for garbage input.
    private static func usable(_ point: Point) -> Point? {
        let limit = 1_000_000.0
        guard point.x.isFinite, point.y.isFinite, abs(point.x) < limit, abs(point.y) < limit else { return nil }
        return point
    }
}

extension FeedbackOverlay: FeedbackPresenter {}

/// A force ring on the screen: what it shows, its window, when it may be drawn again, and the
/// latest value waiting for that.
private struct ShownRing {
    var ring: ProgressRing
    let window: OverlayWindow
    var nextFrame: Double
    var pending: ProgressRing?
}

/// A contact's circle on the screen (`FeedbackOverlay.showContacts`): its window, when it may
/// be redrawn next, and the state to draw then.
private struct ShownMarker {
    var marker: ContactMarker
    let window: OverlayWindow
    var nextFrame: Double
    var pending: ContactMarker?
}
