/// The one place a value becomes a line of JSON: every `--json` line and every trace line is a
/// value of a type that encodes itself (`Encodable`), written here.
///
/// What docs/trace-format.md shows, byte for byte: an object's keys in the order the value
/// encodes them (a synthesized `encode(to:)` follows the properties' order), an optional left
/// out when nil (`encodeIfPresent`) and written `null` only where the type encodes a nil on
/// purpose (`NullWhenNil`), numbers rounded to millionths with integral values written without
/// a fraction (`JSONLine.number`), no spaces, and strings escaped only where JSON requires it.
public enum JSONLineEncoder {
    /// `value` as one line of JSON, without a line break.
    public static func line<Value: Encodable>(_ value: Value) -> String {
        let root = JSONSlot()
        do {
            try value.encode(to: SlotEncoder(slot: root, codingPath: []))
        } catch {
            // This encoder never throws; the project's types encode without throwing.
            fatalError("\(Value.self) could not encode itself: \(error)")
        }
        var text = ""
        text.reserveCapacity(256)
        root.write(to: &text)
        return text
    }
}

/// An optional written as `null` when nil, where the contract keeps the key (`"watching":null`);
/// a plain optional property is left out when nil. Decoding requires the key, `null` or a value.
@propertyWrapper
public struct NullWhenNil<Wrapped> {
    public var wrappedValue: Wrapped?

    public init(wrappedValue: Wrapped?) {
        self.wrappedValue = wrappedValue
    }
}

extension NullWhenNil: Sendable where Wrapped: Sendable {}
extension NullWhenNil: Equatable where Wrapped: Equatable {}
extension NullWhenNil: Hashable where Wrapped: Hashable {}

extension NullWhenNil: Encodable where Wrapped: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension NullWhenNil: Decodable where Wrapped: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Wrapped.self)
    }
}

extension KeyedDecodingContainer {
    /// An optional `NullWhenNil`, a key that may be left out or be `null` (`DeviceLine.learned`):
    /// nil when the key is absent, a `NullWhenNil` of nil when it is `null`. A synthesized
    /// `Decodable` calls this rather than the general `decodeIfPresent`, which gives nil for both.
    func decodeIfPresent<Wrapped: Decodable>(_ type: NullWhenNil<Wrapped>.Type, forKey key: Key) throws -> NullWhenNil<Wrapped>? {
        contains(key) ? try decode(type, forKey: key) : nil
    }
}

// MARK: - The encoder

/// One value of the line being built: a reference, so a container handed out keeps writing
/// into the place its parent gave it.
private final class JSONSlot {
    enum Content {
        case empty
        case scalar(String)
        case object(JSONObjectStorage)
        case array(JSONArrayStorage)
    }

    var content = Content.empty

    var object: JSONObjectStorage {
        if case .object(let storage) = content { return storage }
        let storage = JSONObjectStorage()
        content = .object(storage)
        return storage
    }

    var array: JSONArrayStorage {
        if case .array(let storage) = content { return storage }
        let storage = JSONArrayStorage()
        content = .array(storage)
        return storage
    }

    func write(to text: inout String) {
        switch content {
        case .empty:
            text += "{}"
        case .scalar(let json):
            text += json
        case .object(let storage):
            text += "{"
            for (index, member) in storage.members.enumerated() {
                if index > 0 { text += "," }
                text += JSONLine.quoted(member.key)
                text += ":"
                switch member.value {
                case .json(let json): text += json
                case .slot(let slot): slot.write(to: &text)
                }
            }
            text += "}"
        case .array(let storage):
            text += "["
            for (index, element) in storage.elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        }
    }
}

/// An object's members in the order they were first encoded; a key encoded again keeps its
/// place. A scalar is kept as its JSON, without a slot of its own: most members are scalars.
private final class JSONObjectStorage {
    enum Value {
        case json(String)
        case slot(JSONSlot)
    }

    var members: [(key: String, value: Value)] = []

    func slot(for key: String) -> JSONSlot {
        let slot = JSONSlot()
        if let index = members.firstIndex(where: { $0.key == key }) {
            if case .slot(let existing) = members[index].value { return existing }
            members[index].value = .slot(slot)
        } else {
            members.append((key, .slot(slot)))
        }
        return slot
    }

    func set(_ key: String, _ json: String) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = .json(json)
        } else {
            members.append((key, .json(json)))
        }
    }
}

private final class JSONArrayStorage {
    var elements: [JSONSlot] = []

    func append() -> JSONSlot {
        let slot = JSONSlot()
        elements.append(slot)
        return slot
    }
}

private struct SlotEncoder: Encoder {
    let slot: JSONSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Asked twice, the same object: a value can encode a tag and then its payload's keys
    /// into one object.
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectContainer<Key>(storage: slot.object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayContainer(storage: slot.array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueContainer(slot: slot, codingPath: codingPath)
    }
}

/// The JSON of a scalar, as every container writes it.
private enum Scalar {
    static func number<Integer: BinaryInteger>(_ value: Integer) -> String { String(value) }
    static func bool(_ value: Bool) -> String { value ? "true" : "false" }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: JSONObjectStorage
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { storage.set(key.stringValue, "null") }
    mutating func encode(_ value: Bool, forKey key: Key) throws { storage.set(key.stringValue, Scalar.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { storage.set(key.stringValue, JSONLine.quoted(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { storage.set(key.stringValue, JSONLine.number(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { storage.set(key.stringValue, JSONLine.number(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { storage.set(key.stringValue, Scalar.number(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: SlotEncoder(slot: storage.slot(for: key.stringValue), codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(ObjectContainer<NestedKey>(storage: storage.slot(for: key.stringValue).object,
                                                          codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ArrayContainer(storage: storage.slot(for: key.stringValue).array, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        SlotEncoder(slot: storage.slot(for: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: storage.slot(for: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let storage: JSONArrayStorage
    let codingPath: [any CodingKey]
    var count: Int { storage.elements.count }

    private func next() -> SlotEncoder {
        SlotEncoder(slot: storage.append(), codingPath: codingPath + [IndexKey(count)])
    }

    mutating func encodeNil() throws { storage.append().content = .scalar("null") }
    mutating func encode(_ value: Bool) throws { storage.append().content = .scalar(Scalar.bool(value)) }
    mutating func encode(_ value: String) throws { storage.append().content = .scalar(JSONLine.quoted(value)) }
    mutating func encode(_ value: Double) throws { storage.append().content = .scalar(JSONLine.number(value)) }
    mutating func encode(_ value: Float) throws { storage.append().content = .scalar(JSONLine.number(Double(value))) }
    mutating func encode(_ value: Int) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int8) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int16) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int32) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int64) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt8) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt16) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt32) throws { storage.append().content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt64) throws { storage.append().content = .scalar(Scalar.number(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: next())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let encoder = next()
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(storage: encoder.slot.object, codingPath: encoder.codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let encoder = next()
        return ArrayContainer(storage: encoder.slot.array, codingPath: encoder.codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        next()
    }
}

private struct ValueContainer: SingleValueEncodingContainer {
    let slot: JSONSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.content = .scalar("null") }
    mutating func encode(_ value: Bool) throws { slot.content = .scalar(Scalar.bool(value)) }
    mutating func encode(_ value: String) throws { slot.content = .scalar(JSONLine.quoted(value)) }
    mutating func encode(_ value: Double) throws { slot.content = .scalar(JSONLine.number(value)) }
    mutating func encode(_ value: Float) throws { slot.content = .scalar(JSONLine.number(Double(value))) }
    mutating func encode(_ value: Int) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int8) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int16) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int32) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: Int64) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt8) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt16) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt32) throws { slot.content = .scalar(Scalar.number(value)) }
    mutating func encode(_ value: UInt64) throws { slot.content = .scalar(Scalar.number(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: SlotEncoder(slot: slot, codingPath: codingPath))
    }
}
