/// Reads a trace one line at a time: the header first, then events, each checked against the
/// header and the event before it. An event line of the usual shape goes through the
/// scanner; every other line, and every line the scanner would refuse, goes through the full
/// JSON parser (`JSONValue`), so the results and the errors are those of the full parser.
package struct TraceLineParser {
    package let file: String
    package private(set) var header: TraceHeader?
    /// Off, every line goes through the full parser (for measurements and differential tests).
    package var usesScanner: Bool
    private var devices: [Int: InputDevice] = [:]
    /// The header's device ids and whether each has pressure: a short list is searched
    /// faster than hashed.
    private var deviceList: [(id: Int, hasPressure: Bool)] = []
    private var lastTime = -Double.infinity

    package init(file: String, usesScanner: Bool = true) {
        self.file = file
        self.usesScanner = usesScanner
    }

    /// The event on one line (without its line end), or nil for a blank line or the header.
    package mutating func parse(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceError) -> ContactEvent? {
        if usesScanner, header != nil, let event = scanned(line) {
            lastTime = event.time
            return event
        }
        if Self.isBlank(line) { return nil }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw TraceError(file: file, line: number, message: "the trace is not UTF-8 text")
        }
        return try parse(text, number: number)
    }

    /// The full parser: the line as text, through `JSONValue`.
    package mutating func parse(_ rawLine: String, number lineNumber: Int) throws(TraceError) -> ContactEvent? {
        let line = Self.trimmed(rawLine)
        if line.isEmpty { return nil }
        guard let value = JSONValue.parse(line) else {
            if let number = Self.numberOutOfRange(in: line) {
                throw TraceError(file: file, line: lineNumber, message: "the number \(number) is too large for a trace (it reads as infinity)")
            }
            // Shown as the line begins, its control characters escaped: a terminal would act on
            // them (a binary file's, or an escape sequence).
            let shown = String(line.prefix(60)).unicodeScalars.map { scalar in
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? scalar.escaped(asASCII: true) : String(scalar)
            }.joined()
            // Found in review: a JSON file of another shape (a list of forces over several
            // lines) was told its `[` is not JSON, which it is, and nothing of what a trace is.
            let notATrace = header == nil
                ? "; this is not a trace, whose first line is its header {\"trace\":1,\"devices\":[...]} and each line after it one event (docs/trace-format.md)"
                : ""
            throw TraceError(file: file, line: lineNumber, message: "not valid JSON: \(shown)\(notATrace)")
        }
        guard case .object(let object) = value else {
            let notATrace = header == nil ? "; this is not a trace, whose first line is its header {\"trace\":1,\"devices\":[...]}" : ""
            throw TraceError(file: file, line: lineNumber, message: "each line must be a JSON object\(notATrace)")
        }
        var fields = Fields(object: object, file: file, line: lineNumber)
        guard header != nil else {
            let parsed = try fields.header()
            header = parsed
            for device in parsed.devices { devices[device.id] = device }
            deviceList = parsed.devices.map { ($0.id, $0.hasPressure) }
            return nil
        }
        let event = try fields.event(devices: devices)
        if event.time < lastTime {
            throw TraceError(file: file, line: lineNumber,
                             message: "`t` goes back in time (\(event.time.formatted) after \(lastTime.formatted)); events must be in time order")
        }
        lastTime = event.time
        return event
    }

    /// A number written in the line that no Double holds (`1e999`): JSON allows it, the
    /// decoder refuses it, and "not valid JSON" would send the reader looking for a syntax
    /// error. Nil when every number fits (a line broken some other way).
    static func numberOutOfRange(in line: String) -> Substring? {
        let numeric = Set("0123456789+-.eE")
        return line.split(whereSeparator: { !numeric.contains($0) }).first { token in
            token.first.map { $0.isNumber || $0 == "-" } == true && Double(token)?.isInfinite == true
        }
    }

    /// The error for a trace that ended before its header.
    package func missingHeader() -> TraceError {
        TraceError(file: file, line: 0, message: "the trace is empty; its first line must be the header {\"trace\":1,\"devices\":[...]}")
    }

    /// An event the scanner reads and the full parser would accept as it is; nil hands the
    /// line to the full parser, which gives the same event or the error.
    private func scanned(_ line: UnsafeBufferPointer<UInt8>) -> ContactEvent? {
        guard let scan = TraceEventScanner.scan(line), scan.time >= 0, scan.time >= lastTime,
              let deviceID = Self.wholeNumber(scan.device), let hasPressure = self.hasPressure(deviceID),
              let contact = Self.wholeNumber(scan.contact), contact >= 0 else { return nil }
        let pressure = hasPressure ? scan.pressure : nil
        return ContactEvent(time: scan.time, device: deviceID, contact: contact, phase: scan.phase,
                            position: Point(x: scan.x, y: scan.y), pressure: pressure)
    }

    /// Whether the device has pressure; nil for a device not in the header.
    private func hasPressure(_ id: Int) -> Bool? {
        if deviceList.count > 8 { return devices[id]?.hasPressure }
        for device in deviceList where device.id == id { return device.hasPressure }
        return nil
    }

    /// The full parser's test for an integer key, without its error.
    private static func wholeNumber(_ value: Double) -> Int? {
        value == value.rounded() && abs(value) < 1e15 ? Int(value) : nil
    }

    /// The line without the Unicode white space (spaces, tabs, line ends, no-break spaces)
    /// around it.
    private static func trimmed(_ line: String) -> String {
        let scalars = line.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// Empty or only ASCII white space; anything else not ASCII goes to the full parser,
    /// which trims Unicode white space.
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || (0x09...0x0D).contains($0) }
    }
}

/// Typed access to one line's keys, with errors that name the line and the key.
private struct Fields {
    let object: [String: JSONValue]
    let file: String
    let line: Int

    func fail(_ message: String) -> TraceError {
        TraceError(file: file, line: line, message: message)
    }

    func number(_ key: String, in dictionary: [String: JSONValue]? = nil) throws(TraceError) -> Double {
        let source = dictionary ?? object
        guard let value = source[key] else { throw fail("missing `\(key)`") }
        guard case .number(let number) = value, number.isFinite else {
            throw fail("`\(key)` must be a number, found \(value.shown)")
        }
        return number
    }

    func integer(_ key: String, in dictionary: [String: JSONValue]? = nil) throws(TraceError) -> Int {
        let value = try number(key, in: dictionary)
        guard value == value.rounded(), abs(value) < 1e15 else { throw fail("`\(key)` must be a whole number, found \(value.formatted)") }
        return Int(value)
    }

    func string(_ key: String, in dictionary: [String: JSONValue]? = nil) throws(TraceError) -> String {
        let source = dictionary ?? object
        guard let value = source[key] else { throw fail("missing `\(key)`") }
        guard case .string(let text) = value else { throw fail("`\(key)` must be a string, found \(value.shown)") }
        return text
    }

    mutating func header() throws(TraceError) -> TraceHeader {
        guard object["trace"] != nil else {
            throw fail("the first line must be the header, starting {\"trace\":1,...}; found an object without `trace`")
        }
        let version = try integer("trace")
        guard version == TraceHeader.version else {
            throw fail("trace format version \(version) is not supported; this GestureBridge reads version \(TraceHeader.version)")
        }
        var screen: ScreenSize?
        if let value = object["screen"], value != .null {
            guard case .object(let dictionary) = value else { throw fail("`screen` must be {\"width\":W,\"height\":H}") }
            let width = try number("width", in: dictionary)
            let height = try number("height", in: dictionary)
            // An X screen's size is a 16-bit count of pixels, its coordinates 15 bits.
            guard width > 0, height > 0, width <= 32767, height <= 32767 else {
                throw fail("`screen` width and height must be from 1 to 32767 pixels, as an X screen's")
            }
            screen = ScreenSize(width: width, height: height)
        }
        guard case .array(let list)? = object["devices"] else { throw fail("the header needs a `devices` list") }
        var devices: [InputDevice] = []
        var ids: Set<Int> = []
        for (index, item) in list.enumerated() {
            guard case .object(let dictionary) = item else { throw fail("device \(index + 1) must be an object") }
            let id = try integer("id", in: dictionary)
            guard ids.insert(id).inserted else { throw fail("device id \(id) appears twice") }
            let name = if case .string(let name)? = dictionary["name"] { name } else { "device \(id)" }
            let kindName = try string("kind", in: dictionary)
            guard let kind = DeviceKind(rawValue: kindName) else {
                throw fail("device \(id): unknown kind \"\(kindName)\"; one of \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var pressure: PressureRange?
            if let value = dictionary["pressure"], value != .null {
                guard case .object(let range) = value else { throw fail("device \(id): `pressure` must be {\"min\":..,\"max\":..} or null") }
                let min = try number("min", in: range)
                let max = try number("max", in: range)
                guard let parsed = PressureRange(min: min, max: max) else {
                    throw fail("device \(id): pressure max (\(max.formatted)) must be greater than min (\(min.formatted))")
                }
                pressure = parsed
            }
            devices.append(InputDevice(id: id, name: name, kind: kind, pressure: pressure))
        }
        return TraceHeader(screen: screen, devices: devices)
    }

    mutating func event(devices: [Int: InputDevice]) throws(TraceError) -> ContactEvent {
        if object["trace"] != nil { throw fail("a second header line; a trace has one header, on its first line") }
        let time = try number("t")
        guard time >= 0 else { throw fail("`t` must not be negative") }
        let deviceID = try integer("device")
        guard let device = devices[deviceID] else {
            throw fail("device \(deviceID) is not in the header's devices (\(devices.keys.sorted().map(String.init).joined(separator: ", ")))")
        }
        let contact = try integer("contact")
        guard contact >= 0 else { throw fail("`contact` must not be negative") }
        let phaseName = try string("phase")
        guard let phase = ContactPhase(rawValue: phaseName) else {
            throw fail("unknown phase \"\(phaseName)\"; one of \(ContactPhase.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let x = try number("x")
        let y = try number("y")
        var pressure: Double?
        if device.hasPressure, let value = object["pressure"], value != .null {
            pressure = try number("pressure")
        }
        return ContactEvent(time: time, device: deviceID, contact: contact, phase: phase, position: Point(x: x, y: y), pressure: pressure)
    }
}
