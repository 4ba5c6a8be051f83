import GestureKit

/// A point in the picture, in pixels from its top-left corner.
public struct PlotPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
}

/// A rectangle in the picture, in pixels.
public struct PlotRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func contains(_ point: PlotPoint) -> Bool {
        point.x >= x && point.x <= maxX && point.y >= y && point.y <= maxY
    }
}

/// A tick on an axis: where (x for the time axis, y for the force axis) and its label.
public struct PlotTick: Sendable, Hashable {
    public var position: Double
    public var label: String
}

/// A horizontal line across a panel at one of the deep press's levels.
public struct LevelMark: Sendable, Hashable {
    public var kind: LevelKind
    public var source: LevelSource
    public var value: Double
    /// The line's centre, put where a line of its width covers whole pixel rows.
    public var y: Double
    public var width: Double

    /// A pixel row the line covers entirely, whatever its width (2 or 3).
    public var row: Int { Int(y.rounded(.down)) }
}

/// Where a contact was claimed or handed over, on its force curve.
public struct DecisionMarker: Sendable, Hashable {
    public var kind: MarkerKind
    public var center: PlotPoint
    public var label: String
    /// Where the label's text starts (its baseline).
    public var labelOrigin: PlotPoint
}

/// Text at a place, at a size; rotated a quarter turn anticlockwise when `vertical`.
public struct PlotText: Sendable, Hashable {
    public var text: String
    public var origin: PlotPoint
    public var size: Double
    public var bold = false
    public var vertical = false
}

/// One small panel: one contact's force over the time from its touch-down.
public struct PanelLayout: Sendable, Hashable {
    public var press: PlottedPress
    /// The data area: time 0 at its left edge, `timeSpan` at its right; force 0 at its bottom,
    /// 1 at its top.
    public var plot: PlotRect
    public var timeSpan: Double
    public var title: [PlotText]
    public var curve: [PlotPoint]
    public var levels: [LevelMark]
    /// The time the contact was held back, from touch-down to the decision.
    public var held: PlotRect?
    public var marker: DecisionMarker?
    public var timeTicks: [PlotTick]
    public var forceTicks: [PlotTick]

    public func x(time: Double) -> Double {
        plot.x + plot.width * Swift.min(1, Swift.max(0, time / timeSpan))
    }

    public func y(force: Double) -> Double {
        plot.maxY - plot.height * Swift.min(1, Swift.max(0, force))
    }
}

/// One entry of the legend: a sample of what it names, and its text.
public struct LegendItem: Sendable, Hashable {
    public enum Sample: Sendable, Hashable {
        case curve
        case band
        case marker(MarkerKind)
        case level(LevelKind, LevelSource)
    }

    public var sample: Sample
    public var label: String
    /// Where the sample is drawn; the text follows it.
    public var frame: PlotRect
    public var textOrigin: PlotPoint
}

/// The whole picture, computed in plain values: which contacts get a panel, where each
/// panel, line, marker and text goes. `PlotRenderer` only paints it.
public struct PlotLayout: Sendable, Hashable {
    /// Panels at most: with more contacts the hardest ones are shown (the presses and the near
    /// misses: what a threshold is chosen by), in the order they happened.
    public static let maximumPanels = 12

    public var width: Int
    public var height: Int
    public var style: PlotStyle
    public var texts: [PlotText]
    public var panels: [PanelLayout]
    public var legend: [LegendItem]
    /// How many contacts there were in all (`panels` may show fewer).
    public var contacts: Int

    static let margin = 16.0
    static let axisLabelWidth = 22.0
    static let panelWidth = 304.0
    static let panelHeight = 204.0
    static let gap = 14.0
    /// Inside a panel: the two title lines above the data area, the force ticks left of it,
    /// the time ticks below it.
    static let panelTitle = 34.0
    static let tickWidth = 32.0
    static let tickHeight = 18.0

    /// The picture of `presses` (every contact, in order), titled `title`; `note` adds a line
    /// under the title (analyze's suggestion, say).
    public init(presses: [PlottedPress], title: String, note: String? = nil, style: PlotStyle = .standard) {
        self.style = style
        contacts = presses.count
        let shown = Self.select(presses)
        let columns = shown.count <= 1 ? 1 : shown.count <= 4 ? 2 : 3
        let rows = Swift.max(1, (shown.count + columns - 1) / columns)
        let gridX = Self.margin + Self.axisLabelWidth
        var top = Self.margin
        var texts: [PlotText] = []
        texts.append(PlotText(text: title, origin: PlotPoint(x: Self.margin, y: top + style.titleSize), size: style.titleSize, bold: true))
        top += style.titleSize + 8
        for line in [Self.caption(all: presses, shown: shown), note].compactMap({ $0 }) {
            texts.append(PlotText(text: line, origin: PlotPoint(x: Self.margin, y: top + style.textSize), size: style.textSize))
            top += style.textSize + 6
        }
        top += 6
        let gridWidth = Double(columns) * Self.panelWidth + Double(columns - 1) * Self.gap
        let gridHeight = Double(rows) * Self.panelHeight + Double(rows - 1) * Self.gap
        var panels: [PanelLayout] = []
        for (index, press) in shown.enumerated() {
            let origin = PlotPoint(x: gridX + Double(index % columns) * (Self.panelWidth + Self.gap),
                                   y: top + Double(index / columns) * (Self.panelHeight + Self.gap))
            panels.append(Self.panel(press, at: origin, style: style))
        }
        // The axes' names, once for the grid: force up its left side, time under it.
        let forceName = "force (share of the pressure range)"
        let forceNameLength = Double(forceName.count) * style.textSize * style.characterWidth
        texts.append(PlotText(text: forceName,
                              origin: PlotPoint(x: Self.margin + style.textSize, y: top + (gridHeight + forceNameLength) / 2),
                              size: style.textSize, vertical: true))
        let bottom = top + gridHeight + 4
        let timeName = "seconds from touch-down"
        let timeNameLength = Double(timeName.count) * style.textSize * style.characterWidth
        texts.append(PlotText(text: timeName, origin: PlotPoint(x: gridX + (gridWidth - timeNameLength) / 2, y: bottom + style.textSize),
                              size: style.textSize))
        let width = Swift.max(gridX + gridWidth + Self.margin, 620)
        let (legend, legendBottom) = Self.legend(for: panels, top: bottom + style.textSize + 14, width: width, style: style)
        self.texts = texts
        self.panels = panels
        self.legend = legend
        self.width = Int(width.rounded(.up))
        self.height = Int((legendBottom + Self.margin).rounded(.up))
    }

    /// Every contact when they fit; else the hardest `maximumPanels` (ties: the earlier), in
    /// the order they happened.
    static func select(_ presses: [PlottedPress]) -> [PlottedPress] {
        guard presses.count > maximumPanels else { return presses }
        let hardest = presses.map { (press: $0, peak: $0.peak) }
            .sorted { ($0.peak, -$0.press.number) > ($1.peak, -$1.press.number) }.prefix(maximumPanels)
        return hardest.map(\.press).sorted { $0.number < $1.number }
    }

    static func caption(all: [PlottedPress], shown: [PlottedPress]) -> String {
        guard !all.isEmpty else { return "no contacts with pressure" }
        let names = all.reduce(into: [String]()) { names, press in
            if !names.contains(press.deviceName) { names.append(press.deviceName) }
        }
        let devices = names.count == 1 ? names[0] : "\(names.count) devices"
        let count = all.count == 1 ? "1 contact" : "\(all.count) contacts"
        if shown.count < all.count {
            return "\(devices): \(count); the \(shown.count) that pressed hardest, one a panel, from touch-down"
        }
        return "\(devices): \(count), one a panel, from touch-down"
    }

    static func panel(_ press: PlottedPress, at origin: PlotPoint, style: PlotStyle) -> PanelLayout {
        let plot = PlotRect(x: origin.x + tickWidth, y: origin.y + panelTitle + 4,
                            width: panelWidth - tickWidth - 8, height: panelHeight - panelTitle - 4 - tickHeight)
        let (step, span) = timeScale(press.duration)
        var panel = PanelLayout(press: press, plot: plot, timeSpan: span, title: [], curve: [], levels: [], held: nil,
                                marker: nil, timeTicks: [], forceTicks: [])
        panel.title = [
            PlotText(text: headline(press), origin: PlotPoint(x: origin.x, y: origin.y + style.textSize), size: style.textSize, bold: true),
            PlotText(text: outcomeLine(press), origin: PlotPoint(x: origin.x, y: origin.y + 2 * style.textSize + 5), size: style.textSize),
        ]
        panel.curve = curve(press.samples.map { PlotPoint(x: panel.x(time: $0.time), y: panel.y(force: $0.force)) })
        for sourced in press.levels {
            for kind in LevelKind.allCases {
                let value = kind.value(in: sourced.levels)
                let width = style.lineWidth(sourced.source)
                // An even width centred on a pixel edge, an odd one on a pixel's middle: crisp.
                let edge = panel.y(force: value).rounded()
                let y = Int(width) % 2 == 0 ? edge : edge + 0.5
                panel.levels.append(LevelMark(kind: kind, source: sourced.source, value: value, y: y, width: width))
            }
        }
        if let held = press.outcome.held {
            let right = panel.x(time: held)
            panel.held = PlotRect(x: plot.x, y: plot.y, width: right - plot.x, height: plot.height)
            let kind: MarkerKind
            if case .claimed = press.outcome { kind = .claimed } else { kind = .handedOver }
            let center = PlotPoint(x: right, y: panel.y(force: press.force(at: held)))
            let label = kind.rawValue
            let labelWidth = Double(label.count) * style.tickSize * style.characterWidth
            // Beside the marker, on whichever side has room, a little below or above it.
            let labelX = center.x + style.markerRadius + 3 + labelWidth <= plot.maxX
                ? center.x + style.markerRadius + 3 : center.x - style.markerRadius - 3 - labelWidth
            let labelY = center.y - style.markerRadius - 3 - style.tickSize < plot.y
                ? center.y + style.markerRadius + style.tickSize + 2 : center.y - style.markerRadius - 3
            panel.marker = DecisionMarker(kind: kind, center: center, label: label, labelOrigin: PlotPoint(x: labelX, y: labelY))
        }
        // As many decimals as the step has: 0, 1, 2; 0.0, 2.5, 5.0; 0.00, 0.05, 0.10.
        let decimals = step == step.rounded() ? 0 : step * 10 == (step * 10).rounded() ? 1 : 2
        panel.timeTicks = stride(from: 0.0, through: span + step / 1000, by: step).map { time in
            PlotTick(position: panel.x(time: time), label: number(time, decimals))
        }
        panel.forceTicks = [0.0, 0.25, 0.5, 0.75, 1.0].map { PlotTick(position: panel.y(force: $0), label: number($0, 2)) }
        return panel
    }

    /// The points of a curve, at most four a pixel column (its first, highest, lowest and last
    /// there, in their order): an hour's contact draws as it looks, not as millions of points.
    static func curve(_ points: [PlotPoint]) -> [PlotPoint] {
        guard points.count > 2_000 else { return points }
        var kept: [PlotPoint] = []
        var column: [PlotPoint] = []
        func flush() {
            guard let first = column.first, let last = column.last else { return }
            var chosen = [first]
            if let top = column.min(by: { $0.y < $1.y }), let bottom = column.max(by: { $0.y < $1.y }) {
                // The extremes in the order they came.
                let extremes = [top, bottom].sorted { $0.x < $1.x }
                for point in extremes where point != chosen.last { chosen.append(point) }
            }
            if last != chosen.last { chosen.append(last) }
            kept += chosen
            column.removeAll(keepingCapacity: true)
        }
        for point in points {
            if let first = column.first, point.x.rounded(.down) != first.x.rounded(.down) { flush() }
            column.append(point)
        }
        flush()
        return kept
    }

    /// A tick step giving at most five steps over `duration`, and the span it rounds up to.
    static func timeScale(_ duration: Double) -> (step: Double, span: Double) {
        let steps = [0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]
        let length = duration.isFinite ? Swift.max(duration, 0.01) : 0.01
        let step = steps.first { length / $0 <= 5 } ?? (length / 5).rounded(.up)
        return (step, Swift.max(step, (length / step).rounded(.up) * step))
    }

    static func headline(_ press: PlottedPress) -> String {
        var text = "#\(press.number)  peak \(number(press.peak, 2))  at \(number(press.start, 1)) s"
        if let group = press.group { text += "  (\(group))" }
        return text
    }

    static func outcomeLine(_ press: PlottedPress) -> String {
        switch press.outcome {
        case .claimed(let gesture, let after):
            return "claimed by \(gesture) after \(number(after, 2)) s"
        case .handedOver(let reason, let after):
            return "handed over after \(number(after, 2)) s: \(reason.rawValue)"
        case .undecided:
            return press.group == nil ? "not held back: no gesture owns it" : "listened to only (calibrating)"
        }
    }

    /// The legend: an entry for each thing the panels show, in rows as wide as the picture.
    static func legend(for panels: [PanelLayout], top: Double, width: Double, style: PlotStyle) -> ([LegendItem], Double) {
        var entries: [(LegendItem.Sample, String)] = []
        guard !panels.isEmpty else { return ([], top) }
        entries.append((.curve, "force"))
        if panels.contains(where: { $0.held != nil }) { entries.append((.band, "held back from the application")) }
        for kind in MarkerKind.allCases where panels.contains(where: { $0.marker?.kind == kind }) {
            entries.append((.marker(kind), kind == .claimed ? "claimed: a deep press" : "handed over to the application"))
        }
        for source in LevelSource.allCases {
            for kind in LevelKind.allCases where panels.contains(where: { $0.levels.contains { $0.kind == kind && $0.source == source } }) {
                entries.append((.level(kind, source), "\(kind.rawValue) (\(source.rawValue))"))
            }
        }
        var items: [LegendItem] = []
        var x = margin, y = top
        let sampleWidth = 30.0, rowHeight = style.textSize + 10
        for (sample, label) in entries {
            let itemWidth = sampleWidth + 6 + Double(label.count) * style.textSize * style.characterWidth + 18
            if x + itemWidth > width - margin, x > margin {
                x = margin
                y += rowHeight
            }
            items.append(LegendItem(sample: sample, label: label,
                                    frame: PlotRect(x: x, y: y, width: sampleWidth, height: style.textSize),
                                    textOrigin: PlotPoint(x: x + sampleWidth + 6, y: y + style.textSize - 2)))
            x += itemWidth
        }
        return (items, y + rowHeight)
    }

    /// `value` with `digits` decimals.
    static func number(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "?" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        guard digits > 0 else { return abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded) }
        var text = String(rounded)
        if text.contains("e") { return text }
        let decimals = text.split(separator: ".", omittingEmptySubsequences: false).last?.count ?? 0
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        return text
    }
}
