/// Who made a device and which model it is: the vendor and product ids its bus gives it (USB,
/// Bluetooth, I2C), as X reports them in the device property "Device Product ID".
public struct DeviceProduct: Sendable, Hashable, CustomStringConvertible {
    public var vendor: UInt32
    public var product: UInt32

    public init(vendor: UInt32, product: UInt32) {
        self.vendor = vendor
        self.product = product
    }

    /// The ids as X gives them; nil for none, or for 0:0, which drivers set for a device its
    /// bus did not name.
    public init?(ids: [UInt32]) {
        guard ids.count == 2, ids != [0, 0] else { return nil }
        self.init(vendor: ids[0], product: ids[1])
    }

    /// Four hex digits (or more where an id needs them), as `lsusb` writes them: "056a".
    public var vendorText: String { Self.hex(vendor) }
    public var productText: String { Self.hex(product) }

    /// "056a:5000".
    public var description: String { vendorText + ":" + productText }

    /// Reads "056a:5000" back; nil for anything else.
    public init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let vendor = Self.id(parts[0]), let product = Self.id(parts[1]) else { return nil }
        self.init(vendor: vendor, product: product)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Lower-case hex of four to eight digits, as `hex` writes it.
    private static func id(_ text: Substring) -> UInt32? {
        guard (4...8).contains(text.count), text.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else { return nil }
        return UInt32(text, radix: 16)
    }
}
