import GestureKit

/// One valuator of a device as XIQueryDevice describes it.
public struct ValuatorAxis: Sendable, Hashable {
    public var number: Int
    /// The axis label atom's name (`Abs X`, `Abs Pressure`, `Rel Y`), empty when unlabeled.
    public var label: String
    public var min: Double
    public var max: Double
    /// The value when the device was queried.
    public var value: Double
    public var isAbsolute: Bool

    public init(number: Int, label: String, min: Double, max: Double, value: Double = 0, isAbsolute: Bool) {
        self.number = number
        self.label = label
        self.min = min
        self.max = max
        self.value = value
        self.isAbsolute = isAbsolute
    }

    /// Labels the kernel's input layer gives pressure axes, single-touch and multitouch.
    public static let pressureLabels: Set<String> = ["Abs Pressure", "Abs MT Pressure"]

    public var isPressure: Bool { ValuatorAxis.pressureLabels.contains(label) }

    /// The range the engine normalizes against; nil when it spans nothing.
    public var pressureRange: PressureRange? {
        PressureRange(min: min, max: max)
    }
}
