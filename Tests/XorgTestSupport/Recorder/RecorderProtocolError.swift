/// An X protocol error (BadAccess, BadValue...) caught on a recorder's connection.
public struct RecorderProtocolError: Sendable, Equatable, CustomStringConvertible {
    public var errorCode: UInt8
    public var requestCode: UInt8
    public var minorCode: UInt8
    public var resourceID: UInt

    public var description: String {
        "X error \(errorCode) on request \(requestCode).\(minorCode) (resource \(resourceID))"
    }
}
