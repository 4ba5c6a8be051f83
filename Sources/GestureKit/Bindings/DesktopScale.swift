/// How large the desktop draws things: how many of the screen's pixels one pixel of the config
/// (a slop, a knob's center and radii) and of the feedback (the pulse, the force ring, the touch
/// view) is. A config's pixels are pixels at scale 1, 96 dpi; on a desktop scaled to 2 (`Xft.dpi:
/// 192`, a 4K laptop panel) a 12 px slop is 24 of the screen's pixels, the same distance under
/// the finger as the feedback drawn for it.
public enum DesktopScale: Sendable, Hashable {
    /// Config pixels are the screen's pixels: a trace replayed (a trace records no scale), a test.
    case unscaled
    /// The desktop's scale: the DPI it asks for (`Xft.dpi`, what toolkits scale by; nil when
    /// unset) over 96; without it, the physical DPI of the monitor under the point, so a
    /// distance is the same in millimetres on every monitor; 1 when neither is known. Kept
    /// within 0.5...4.
    case desktop(resourceDPI: Double?)

    /// The scale at `point` of a screen with `monitors`.
    public func factor(at point: Point, monitors: MonitorLayout) -> Double {
        switch self {
        case .unscaled:
            return 1
        case .desktop(let resourceDPI):
            return Self.factor(dpi: resourceDPI ?? monitors.monitor(at: point)?.dpi)
        }
    }

    /// `dpi` over 96, within 0.5...4; 1 for none (or one that is not a positive number).
    public static func factor(dpi: Double?) -> Double {
        guard let dpi, dpi.isFinite, dpi > 0 else { return 1 }
        return Swift.min(Swift.max(dpi / 96, 0.5), 4)
    }
}
