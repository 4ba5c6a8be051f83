/// A rectangle of whole pixels on the root window, from its top-left corner.
public struct ScreenRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether `point` lies inside: the left and top edges count, the right and bottom do not.
    public func contains(_ point: Point) -> Bool {
        point.x >= Double(x) && point.x < Double(x + width) && point.y >= Double(y) && point.y < Double(y + height)
    }

    /// The pixel inside nearest to `point` (`point` itself inside).
    public func clamped(_ point: Point) -> Point {
        guard !isEmpty else { return point }
        return Point(x: Swift.min(Swift.max(point.x, Double(x)), Double(x + width - 1)),
                     y: Swift.min(Swift.max(point.y, Double(y)), Double(y + height - 1)))
    }

    /// Whether it overlaps `other` or shares a stretch of edge with it.
    func touches(_ other: ScreenRect) -> Bool {
        x <= other.x + other.width && other.x <= x + width && y <= other.y + other.height && other.y <= y + height
    }

    /// How far `point` is from the nearest pixel inside; 0 inside.
    public func distance(to point: Point) -> Double {
        let dx = max(Double(x) - point.x, 0, point.x - Double(x + width))
        let dy = max(Double(y) - point.y, 0, point.y - Double(y + height))
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The part inside `other`, or nil when they do not meet.
    public func intersection(_ other: ScreenRect) -> ScreenRect? {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(x + width, other.x + other.width)
        let bottom = min(y + height, other.y + other.height)
        guard right > left, bottom > top else { return nil }
        return ScreenRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// One monitor as RandR 1.5 reports it: a named part of the root window. Several monitors
/// may share one output (`xrandr --setmonitor`), and one monitor may span several outputs.
public struct Monitor: Sendable, Hashable {
    /// RandR's name for it: the output's (`HDMI-1`) or the one `--setmonitor` gave.
    public var name: String
    /// Where it is on the root window, in pixels.
    public var frame: ScreenRect
    /// Its physical size; 0 when the monitor does not report one.
    public var widthMillimeters: Int
    public var heightMillimeters: Int
    public var isPrimary: Bool

    public init(name: String, frame: ScreenRect, widthMillimeters: Int, heightMillimeters: Int, isPrimary: Bool = false) {
        self.name = name
        self.frame = frame
        self.widthMillimeters = widthMillimeters
        self.heightMillimeters = heightMillimeters
        self.isPrimary = isPrimary
    }

    /// Pixels per inch across, from the physical width; nil when the size is unknown.
    public var horizontalDPI: Double? { Self.dpi(pixels: frame.width, millimeters: widthMillimeters) }
    /// Pixels per inch down, from the physical height; nil when the size is unknown.
    public var verticalDPI: Double? { Self.dpi(pixels: frame.height, millimeters: heightMillimeters) }

    /// Pixels per inch: of the area (the geometric mean of both directions), or the one
    /// direction known; nil when neither is. The area's: RandR turns a rotated monitor's
    /// pixels but not its millimetres, and the product of the two directions is the same
    /// either way. A size that is an aspect ratio (16×9, 160×100 mm: what TVs and projectors
    /// put in their EDID) is no size.
    public var dpi: Double? {
        guard !Self.aspectRatioSizes.contains([widthMillimeters, heightMillimeters]) else { return nil }
        switch (horizontalDPI, verticalDPI) {
        case let (horizontal?, vertical?): return (horizontal * vertical).squareRoot()
        case let (horizontal?, nil): return horizontal
        case let (nil, vertical?): return vertical
        case (nil, nil): return nil
        }
    }

    /// Millimetre sizes that are aspect ratios, not sizes.
    static let aspectRatioSizes: Set<[Int]> = [[16, 9], [16, 10], [160, 90], [160, 100], [1600, 900], [1600, 1000]]

    /// Sizes below a centimetre are placeholders some drivers report, not a screen.
    private static func dpi(pixels: Int, millimeters: Int) -> Double? {
        guard pixels > 0, millimeters >= 10 else { return nil }
        return Double(pixels) * 25.4 / Double(millimeters)
    }
}

/// The monitors of one screen, in RandR's order. Empty when RandR reports none (no RandR
/// 1.5, or a screen without outputs): the whole root window is then one monitor.
public struct MonitorLayout: Sendable, Hashable {
    public var monitors: [Monitor]

    public init(_ monitors: [Monitor]) {
        self.monitors = monitors
    }

    /// No monitors known: everything falls back to the root window.
    public static let none = MonitorLayout([])

    public var isEmpty: Bool { monitors.isEmpty }

    public var primary: Monitor? { monitors.first(where: \.isPrimary) }

    public func monitor(named name: String) -> Monitor? {
        monitors.first { $0.name == name }
    }

    /// Whether every monitor can be reached from every other through monitors that touch: X
    /// then keeps the pointer on the monitors, holding it at the edge of the one it comes from
    /// where it would go where none shows (below the shorter of two side by side). Where they
    /// lie apart, X lets the pointer go anywhere on the root (RandR's contiguity).
    public var isContiguous: Bool {
        guard let first = monitors.first else { return false }
        var reached = [first.frame]
        var left = monitors.dropFirst().map(\.frame)
        while let index = left.firstIndex(where: { frame in reached.contains { $0.touches(frame) } }) {
            reached.append(left.remove(at: index))
        }
        return left.isEmpty
    }

    /// The monitor showing `point`: one containing it (the primary where several overlap,
    /// as mirrored monitors do), else the nearest; nil when the layout is empty.
    public func monitor(at point: Point) -> Monitor? {
        // Asked for every feedback update: no arrays.
        var containing: Monitor?
        var nearest: (monitor: Monitor, distance: Double)?
        for monitor in monitors {
            if monitor.frame.contains(point) {
                if monitor.isPrimary { return monitor }
                if containing == nil { containing = monitor }
            } else if containing == nil {
                let distance = monitor.frame.distance(to: point)
                if nearest.map({ distance < $0.distance }) ?? true { nearest = (monitor, distance) }
            }
        }
        return containing ?? nearest?.monitor
    }

    /// The area feedback at `point` may cover: the monitor showing it, cut to `root`; the
    /// whole root when no monitor is known or the monitor lies outside the root. Where mirrored
    /// monitors overlap (a laptop showing a smaller projector's picture), the largest of them:
    /// it shows all the others do, and more.
    public func visibleArea(at point: Point, root: ScreenRect) -> ScreenRect {
        guard let shown = largestMonitor(containing: point) ?? monitor(at: point), let area = shown.frame.intersection(root) else {
            return root
        }
        return area
    }

    /// The largest monitor containing `point`: where mirrored monitors overlap, the one that
    /// shows all the others do, and more; nil on no monitor.
    public func largestMonitor(containing point: Point) -> Monitor? {
        // Asked for every feedback update: no arrays.
        var largest: Monitor?
        for monitor in monitors where monitor.frame.contains(point) {
            if largest.map({ monitor.frame.width * monitor.frame.height > $0.frame.width * $0.frame.height }) ?? true {
                largest = monitor
            }
        }
        return largest
    }
}
