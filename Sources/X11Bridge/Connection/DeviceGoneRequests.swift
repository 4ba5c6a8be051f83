/// Requests about one device that fail only because the device is gone by the time they
/// arrive (unplugged: X releases its buttons, then removes it, before the bridge's answer to
/// that release reaches the server). Their serials are kept, a bounded few, so that such a
/// refusal is taken back (`absorb`) rather than taken for a fault that lets go of everything.
struct DeviceGoneRequests: Sendable {
    /// Far more than go out between two reads of errors.
    static let kept = 32
    private var serials: [UInt] = []

    /// Notes the request about to be sent on `connection`.
    mutating func noteNext(on connection: XConnection) {
        serials.append(connection.nextRequestSerial)
        if serials.count > Self.kept { serials.removeFirst() }
    }

    /// `errors` without the refusals of the requests noted.
    func absorb(_ errors: [XProtocolError]) -> [XProtocolError] {
        errors.filter { !serials.contains($0.serial) }
    }
}
