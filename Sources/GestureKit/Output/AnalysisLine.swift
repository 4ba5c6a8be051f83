/// One device's pressure statistics as `analyze --json` prints them: `{"device","name","kind",
/// "pressure","samples","contacts","distinctLevels","minimum","maximum","forceHistogram","peaks",
/// "suggestion"}`; `minimum`, `maximum` and `suggestion` null when there is nothing to say.
public struct AnalysisLine: Codable, Sendable, Hashable {
    /// The device's id in the trace.
    public var device: Int
    public var name: String
    public var kind: DeviceKind
    @NullWhenNil public var pressure: PressureRangeLine?
    public var samples: Int
    public var contacts: Int
    public var distinctLevels: Int
    @NullWhenNil public var minimum: Double?
    @NullWhenNil public var maximum: Double?
    public var forceHistogram: [Int]
    public var peaks: Peaks
    @NullWhenNil public var suggestion: Suggestion?

    /// `suggestion`: with how many contacts fall on each side of the suggested threshold; nil
    /// when there is none, or the device has no pressure.
    public init(_ stats: PressureStatistics, suggestion: Suggestion?) {
        device = stats.device.id
        name = stats.device.name
        kind = stats.device.kind
        pressure = stats.device.pressure.map(PressureRangeLine.init)
        samples = stats.samples
        contacts = stats.contacts
        distinctLevels = stats.distinctLevels
        minimum = stats.minimum
        maximum = stats.maximum
        forceHistogram = stats.histogram
        peaks = Peaks(stats.peaks)
        self.suggestion = suggestion
    }

    /// The contacts' peak forces: `{"count","min","p10","p25","median","p75","p90","max","histogram"}`,
    /// every percentile's key there even without contacts (null then), so a script reads the
    /// same keys each time.
    public struct Peaks: Codable, Sendable, Hashable {
        public var count: Int
        /// One value for each name of `PeakSummary.percentileNames`, nil without contacts.
        public var percentiles: [Double?]
        public var histogram: [Int]

        public init(_ summary: PeakSummary) {
            count = summary.count
            percentiles = PeakSummary.percentileNames.indices.map { summary.percentiles.indices.contains($0) ? summary.percentiles[$0] : nil }
            histogram = summary.histogram
        }

        /// The percentile named `name` (`median`, `p90`...); nil without contacts or for no such name.
        public func percentile(_ name: String) -> Double? {
            PeakSummary.percentileNames.firstIndex(of: name).flatMap { percentiles[$0] }
        }

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(count, forKey: Key("count"))
            for (name, value) in zip(PeakSummary.percentileNames, percentiles) {
                try container.encode(value, forKey: Key(name))
            }
            try container.encode(histogram, forKey: Key("histogram"))
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            count = try container.decode(Int.self, forKey: Key("count"))
            percentiles = try PeakSummary.percentileNames.map {
                try container.decode(NullWhenNil<Double>.self, forKey: Key($0)).wrappedValue
            }
            histogram = try container.decode([Int].self, forKey: Key("histogram"))
        }
    }

    /// The suggested levels and the binding that uses them: `{"threshold","release","ordinary",
    /// "ordinaryPeak","hardPeak","margin","ordinaryContacts","hardContacts","binding"}`.
    public struct Suggestion: Codable, Sendable, Hashable {
        public var threshold: Double
        public var release: Double
        public var ordinary: Double
        public var ordinaryPeak: Double
        public var hardPeak: Double
        public var margin: Double
        public var ordinaryContacts: Int
        public var hardContacts: Int
        /// A binding for the device, as YAML to put under `bindings:`.
        public var binding: String

        /// `basedOn`: the deep press the device's binding keeps the rules of (`BindingSet.calibrationBase`).
        public init(_ suggestion: ThresholdSuggestion, device: String, ordinaryContacts: Int, hardContacts: Int,
                    basedOn base: Binding? = nil) {
            threshold = suggestion.threshold
            release = suggestion.release
            ordinary = suggestion.ordinary
            ordinaryPeak = suggestion.ordinaryPeak
            hardPeak = suggestion.hardPeak
            margin = suggestion.margin
            self.ordinaryContacts = ordinaryContacts
            self.hardContacts = hardContacts
            binding = suggestion.binding(forDevice: device, basedOn: base)
        }
    }
}
