/// Why a recorder window could not be set up.
public enum RecorderWindowError: Error, CustomStringConvertible, Sendable {
    case cannotOpenDisplay(String)
    case missingXInput2(display: String, version: String)
    case setupFailed(display: String, errors: [RecorderProtocolError])
    case notMapped(display: String)

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let display):
            "the recorder cannot open display \(display)"
        case .missingXInput2(let display, let version):
            "display \(display) has no usable XInput2 (found \(version); touch needs 2.2)"
        case .setupFailed(let display, let errors):
            "setting up the recorder window on \(display) failed: \(errors)"
        case .notMapped(let display):
            "the recorder window on \(display) was not mapped within 2 s"
        }
    }
}
