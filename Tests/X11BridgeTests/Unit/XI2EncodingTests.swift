import CX11
import GestureKit
import Testing
import X11Bridge

@Suite("XI2 masks, valuators and axes")
struct XI2EncodingTests {
    @Test("a mask sets bit n of byte n/8 for each event type")
    func maskBytes() {
        let mask = XI2EventMask(device: XIAllDevices, events: [XI_RawMotion, XI_HierarchyChanged])
        // XI_HierarchyChanged is 11 (byte 1, bit 3); XI_RawMotion is 17 (byte 2, bit 1).
        #expect(mask.bytes == [0, 0b0000_1000, 0b0000_0010])
        #expect(XI2EventMask.events(in: mask.bytes) == [XI_RawMotion, XI_HierarchyChanged])
    }

    @Test("the root selection is one mask for XIAllDevices with raw input and hierarchy changes")
    func rootListening() {
        let mask = XI2EventMask.rootListening
        #expect(mask.device == XIAllDevices)
        for event in [XI_RawMotion, XI_RawButtonPress, XI_RawButtonRelease, XI_RawTouchBegin, XI_RawTouchUpdate,
                      XI_RawTouchEnd, XI_HierarchyChanged] {
            #expect(mask.contains(event))
        }
    }

    @Test("per-device selections: device changes (and property changes: a device mapped anew) from all, raw input from each, motion left out where unheard")
    func perDeviceListening() {
        let masks = XI2EventMask.listening(toRawInputOf: [6, 7], unheardMotion: [7])
        #expect(masks.map(\.device) == [XIAllDevices, 6, 7])
        #expect(masks[0].events == [XI_HierarchyChanged, XI_DeviceChanged, XI_PropertyEvent])
        #expect(masks[1].events == [XI_RawMotion, XI_RawButtonPress, XI_RawButtonRelease,
                                    XI_RawTouchBegin, XI_RawTouchUpdate, XI_RawTouchEnd])
        #expect(masks[2].events == [XI_RawButtonPress, XI_RawButtonRelease, XI_RawTouchBegin, XI_RawTouchUpdate, XI_RawTouchEnd])
        #expect(XI2EventMask.rawInput(of: 7, motion: true).events == masks[1].events)
        #expect(XI2EventMask.rawInput(of: 7, motion: false) == masks[2])
    }

    @Test("compact valuator values belong to the set mask bits, in order, from 32.32 fixed point")
    func compactValuators() {
        func fixed(_ value: Double) -> xcb_input_fp3232_t {
            let integral = value.rounded(.down)
            return xcb_input_fp3232_t(integral: Int32(integral), frac: UInt32((value - integral) * 4_294_967_296))
        }
        func decoded(_ mask: [UInt32], _ values: [Double]) -> [Int: Double] {
            Dictionary(uniqueKeysWithValues: ValuatorValues.decode(mask: mask, values: values.map(fixed)).map { ($0.number, $0.value) })
        }
        // Bits 0, 1 and 4 set: three values.
        #expect(decoded([0b0001_0011], [5120, 8192, 600.5]) == [0: 5120, 1: 8192, 4: 600.5])
        // Bit 0 of the second word is valuator 32.
        #expect(decoded([0, 0b0000_0001], [7]) == [32: 7])
        #expect(decoded([0b0000_0001], [-2.25]) == [0: -2.25])
        // A mask with more bits than values: the values there are, nothing made up.
        #expect(decoded([0b0000_0011], [1]) == [0: 1])
        #expect(decoded([0b0000_0011], []).isEmpty)
    }

    @Test("device units map onto pixels exactly as the server scales them")
    func axisMapping() {
        let axis = DeviceFixtures.axis(0, "Abs X", 65535)
        #expect(AxisMapping.pixel(5120, axis: axis, extent: 1280) == 100)
        #expect(AxisMapping.pixel(0, axis: axis, extent: 1280) == 0)
        #expect(AxisMapping.deviceValue(100, axis: axis, extent: 1280) == 5120)
        let offset = ValuatorAxis(number: 0, label: "Abs X", min: 100, max: 1099, isAbsolute: true)
        #expect(AxisMapping.pixel(600, axis: offset, extent: 1000) == 500)
    }
}
