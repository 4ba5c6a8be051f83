import Testing
import XorgTestSupport

/// The driver reads exactly `length` bytes as its C struct: a size or offset that differs from
/// the C layout shifts every later message, so the layout is pinned here.
@Suite struct InputTestMessageTests {
    private let pressureOnly = InputTestValuators(x: nil, y: nil, pressure: 500)

    @Test func messagesHaveTheSizesOfTheDriversStructs() {
        #expect(InputTestMessage.clientVersion(major: 1, minor: 1).encoded.count == 12)
        #expect(InputTestMessage.waitForSync.encoded.count == 8)
        #expect(InputTestMessage.motion(isAbsolute: true, valuators: pressureOnly).encoded.count == 1056)
        #expect(InputTestMessage.proximity(isIn: true, valuators: pressureOnly).encoded.count == 1056)
        #expect(InputTestMessage.button(number: 1, isPress: true, isAbsolute: true, valuators: pressureOnly).encoded.count == 1064)
        #expect(InputTestMessage.key(keycode: 36, isPress: true).encoded.count == 16)
        #expect(InputTestMessage.touch(id: 0, phase: .begin, valuators: pressureOnly).encoded.count == 1056)
    }

    @Test func headerCarriesLengthAndType() {
        let bytes = InputTestMessage.button(number: 3, isPress: true, isAbsolute: true, valuators: pressureOnly).encoded
        #expect(UInt32(littleEndianBytes: bytes, at: 0) == 1064)
        #expect(UInt32(littleEndianBytes: bytes, at: 4) == 4)
        #expect(UInt32(littleEndianBytes: bytes, at: 12) == 3, "button number after is_absolute")
        #expect(UInt32(littleEndianBytes: bytes, at: 16) == 1, "is_press")
    }

    @Test func valuatorBlockSetsMaskBitAndValueOfTheAxis() {
        // Motion: header 8, is_absolute 4, padding 4, then the valuator block at 16:
        // has_unaccelerated 4, mask 8, padding 4, values from 32.
        let bytes = InputTestMessage.motion(isAbsolute: true, valuators: pressureOnly).encoded
        #expect(bytes[20] == 0b0001_0000, "only axis 4 is set")
        #expect(bytes[21...27].allSatisfy { $0 == 0 })
        #expect(Double(littleEndianBytes: bytes, at: 32 + 4 * 8) == 500)
        #expect(Double(littleEndianBytes: bytes, at: 32) == 0)
    }

    @Test func touchCarriesIdAndXI2Phase() {
        let bytes = InputTestMessage.touch(id: 7, phase: .end, valuators: pressureOnly).encoded
        #expect(UInt32(littleEndianBytes: bytes, at: 4) == 6)
        #expect(UInt32(littleEndianBytes: bytes, at: 8) == 7)
        #expect(UInt32(littleEndianBytes: bytes, at: 12) == 20)
    }

    @Test func keyAndVersionMessagesHaveNoPadding() {
        let key = InputTestMessage.key(keycode: 36, isPress: false).encoded
        #expect(UInt32(littleEndianBytes: key, at: 8) == 36)
        #expect(UInt32(littleEndianBytes: key, at: 12) == 0)
        let version = InputTestMessage.clientVersion(major: 1, minor: 1).encoded
        #expect(version[8...11] == [1, 0, 1, 0])
    }

    @Test func valuatorsOutsideTheProtocolsSixtyFourAxesAreDropped() {
        let valuators = InputTestValuators([0: 1, 64: 2, -1: 3])
        #expect(valuators.values == [0: 1])
    }
}

extension UInt32 {
    fileprivate init(littleEndianBytes bytes: [UInt8], at offset: Int) {
        self = (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}

extension Double {
    fileprivate init(littleEndianBytes bytes: [UInt8], at offset: Int) {
        let bits = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        self = Double(bitPattern: bits)
    }
}
