/// How large the desktop draws things: how many of the screen's pixels one pixel of the config
/// (a slop, a knob's center and radii: `requested`) and of the feedback (the pulse, the force
/// ring, the touch view: `desktop`) is. A config's pixels are pixels at scale 1, 96 dpi; on a
/// desktop scaled to 2 (`Xft.dpi: 192`, a 4K laptop panel) a 12 px slop is 24 of the screen's
/// pixels, the same distance under the finger as the feedback drawn for it.
public enum DesktopScale: Sendable, Hashable {
    /// Config pixels are the screen's pixels: a trace replayed (a trace records no scale), a test.
    case unscaled
    /// The desktop's scale: the DPI it asks for (`Xft.dpi`, what toolkits scale by; nil when
    /// unset) over 96; without it, the physical DPI of the monitor under the point over 96,
    /// to the nearest quarter (`physicalFactor`), so a distance is about the same in
    /// millimetres on every monitor; 1 when neither is known. Kept within 0.5...4.
    case desktop(resourceDPI: Double?)
    /// The scale the desktop asks for (`Xft.dpi` over 96, within 0.5...4), and 1 without it:
    /// the gestures' distances. A desktop that sets no `Xft.dpi` (i3 or Openbox without
    /// Xresources, a desktop at 100%) is drawn at 96 dpi whatever the panel, and a config's
    /// pixels are its pixels there, as they were before the scale applied to gestures.
    case requested(resourceDPI: Double?)

    /// The scale at `point` of a screen with `monitors`.
    public func factor(at point: Point, monitors: MonitorLayout) -> Double {
        switch self {
        case .unscaled:
            return 1
        case .desktop(let resourceDPI?):
            return Self.factor(dpi: resourceDPI)
        case .desktop(nil):
            // Where mirrored monitors overlap, the largest's, as the feedback is cut to it
            // (`MonitorLayout.visibleArea`): found in review of a classroom, a projector of
            // unknown size made primary shrank the pulse over its part of the laptop's panel.
            return Self.physicalFactor(dpi: (monitors.largestMonitor(containing: point) ?? monitors.monitor(at: point))?.dpi)
        case .requested(let resourceDPI):
            return Self.factor(dpi: resourceDPI)
        }
    }

    /// A monitor's physical DPI over 96, to the nearest quarter (1, 1.25, 1.5, as desktops
    /// offer their scales): its size is whole millimetres, often whole centimetres, so a 95.9 dpi
    /// panel (what Xorg makes up for a monitor without one, 1280 px across 339 mm) is a 96 dpi
    /// one, at scale 1 exactly, and a 12 px slop stays 12, not 11.99.
    public static func physicalFactor(dpi: Double?) -> Double {
        Swift.min(Swift.max((factor(dpi: dpi) * 4).rounded() / 4, 0.5), 4)
    }

    /// `dpi` over 96, within 0.5...4; 1 for none (or one that is not a positive number).
    public static func factor(dpi: Double?) -> Double {
        guard let dpi, dpi.isFinite, dpi > 0 else { return 1 }
        return Swift.min(Swift.max(dpi / 96, 0.5), 4)
    }
}
