import GestureKit

/// A colour, 8 bits a channel.
public struct PlotColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Its brightness as a greyscale print shows it (Rec. 601 luma), 0...255.
    public var luma: Double { 0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue) }

    /// Mixed with white: `amount` 0 keeps it, 1 is white.
    func tinted(_ amount: Double) -> PlotColor {
        func mix(_ channel: UInt8) -> UInt8 { UInt8((Double(channel) + (255 - Double(channel)) * amount).rounded()) }
        return PlotColor(mix(red), mix(green), mix(blue))
    }

    public var description: String { "(\(red), \(green), \(blue))" }
}

/// A deep press's three levels.
public enum LevelKind: String, Sendable, Hashable, CaseIterable {
    case threshold
    case release
    case ordinary

    public func value(in levels: PressLevels) -> Double {
        switch self {
        case .threshold: return levels.threshold
        case .release: return levels.release
        case .ordinary: return levels.ordinary
        }
    }
}

/// What became of a contact, as a marker shows it.
public enum MarkerKind: String, Sendable, Hashable, CaseIterable {
    /// A filled diamond: the bridge took the press (a right-click).
    case claimed
    /// A filled circle: the press went to the application.
    case handedOver = "handed over"
}

/// Everything the picture paints, each in its own colour.
public enum PlotInk: Sendable, Hashable {
    case background
    case text
    case axis
    case grid
    case curve
    /// The time a contact was held back from the application.
    case held
    case marker(MarkerKind)
    case level(LevelKind, LevelSource)
}

/// The picture's colours, line widths and dashes. The colours are Okabe and Ito's, told apart
/// by people with colour blindness; each meaning also has its own dash or shape and brightness,
/// so the picture reads printed in grey.
public struct PlotStyle: Sendable, Hashable {
    public static let standard = PlotStyle()

    public func color(_ ink: PlotInk) -> PlotColor {
        switch ink {
        case .background: return PlotColor(255, 255, 255)
        case .text: return PlotColor(34, 34, 34)
        case .axis: return PlotColor(90, 90, 90)
        case .grid: return PlotColor(232, 232, 232)
        case .curve: return PlotColor(20, 20, 20)
        case .held: return PlotColor(214, 214, 214)
        case .marker(.claimed): return PlotColor(0, 158, 115)
        case .marker(.handedOver): return PlotColor(204, 121, 167)
        case .level(let kind, let source):
            let full: PlotColor
            switch kind {
            case .threshold: full = PlotColor(213, 94, 0)
            case .release: full = PlotColor(230, 159, 0)
            case .ordinary: full = PlotColor(0, 114, 178)
            }
            // The levels the engine worked with when learning or calibrate moved them are in
            // full colour; the configured ones beside them paler.
            return source == .configured ? full.tinted(0.4) : full
        }
    }

    /// On and off lengths of a level's line: the threshold solid, the release dashed, the
    /// ordinary level dotted.
    public func dashes(_ kind: LevelKind) -> [Double] {
        switch kind {
        case .threshold: return []
        case .release: return [9, 4]
        case .ordinary: return [2, 3]
        }
    }

    public func lineWidth(_ source: LevelSource) -> Double {
        source == .configured ? 2 : 3
    }

    public let curveWidth = 2.0
    public let markerRadius = 6.0
    public let titleSize = 16.0
    public let textSize = 12.0
    public let tickSize = 10.0
    /// An estimate of a character's width at size 1, for placing text without measuring it.
    public let characterWidth = 0.5
}
