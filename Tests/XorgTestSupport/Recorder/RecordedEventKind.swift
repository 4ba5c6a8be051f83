/// The XI2 event types a `RecorderWindow` records, by their XI2 numbers.
public enum RecordedEventKind: Sendable, Hashable, CustomStringConvertible {
    case keyPress
    case keyRelease
    case buttonPress
    case buttonRelease
    case motion
    case touchBegin
    case touchUpdate
    case touchEnd
    case other(xi2Type: Int32)

    init(xi2Type: Int32) {
        switch xi2Type {
        case 2: self = .keyPress
        case 3: self = .keyRelease
        case 4: self = .buttonPress
        case 5: self = .buttonRelease
        case 6: self = .motion
        case 18: self = .touchBegin
        case 19: self = .touchUpdate
        case 20: self = .touchEnd
        default: self = .other(xi2Type: xi2Type)
        }
    }

    public var isTouch: Bool {
        self == .touchBegin || self == .touchUpdate || self == .touchEnd
    }

    public var description: String {
        switch self {
        case .keyPress: "keyPress"
        case .keyRelease: "keyRelease"
        case .buttonPress: "buttonPress"
        case .buttonRelease: "buttonRelease"
        case .motion: "motion"
        case .touchBegin: "touchBegin"
        case .touchUpdate: "touchUpdate"
        case .touchEnd: "touchEnd"
        case .other(let type): "xi2Event(\(type))"
        }
    }
}
