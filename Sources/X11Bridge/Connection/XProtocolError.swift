/// An X protocol error the server sent back, kept instead of letting Xlib exit the process.
public struct XProtocolError: Sendable, Hashable, CustomStringConvertible {
    public var errorCode: Int
    public var requestCode: Int
    public var minorCode: Int
    public var resource: UInt
    public var serial: UInt
    /// Xlib's name for the error (`BadValue (integer parameter out of range for operation)`).
    public var text: String

    public init(errorCode: Int, requestCode: Int, minorCode: Int, resource: UInt, serial: UInt, text: String) {
        self.errorCode = errorCode
        self.requestCode = requestCode
        self.minorCode = minorCode
        self.resource = resource
        self.serial = serial
        self.text = text
    }

    /// The core protocol's codes the bridge tells apart: a value out of range (an unknown touch,
    /// say) and a resource the client may not use (a touch it does not listen to).
    public static let badValue = 2
    public static let badAccess = 10

    public var description: String {
        "X error \(text) in request \(requestCode).\(minorCode) (resource 0x\(String(resource, radix: 16)))"
    }
}
