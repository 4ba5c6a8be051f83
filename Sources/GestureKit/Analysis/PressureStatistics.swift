/// What a person tuning thresholds wants to know about one device's pressure in a trace.
public struct PressureStatistics: Sendable, Hashable {
    public var device: InputDevice
    /// Samples while a contact was down (begin and move events).
    public var samples: Int
    public var contacts: Int
    /// Distinct raw pressure values seen while down.
    public var distinctLevels: Int
    public var minimum: Double?
    public var maximum: Double?
    /// Counts of normalized force in `bins` equal bins over 0...1 (force 1 falls in the last).
    public var histogram: [Int]
    /// The highest normalized force of each contact, in the order the contacts began.
    public var contactPeaks: [Double]

    public static let bins = 10

    /// The contact peaks summarised, so the output stays the same size however long the
    /// recording: their percentiles and a histogram in `bins` equal bins over 0...1.
    public var peaks: PeakSummary { PeakSummary(contactPeaks) }

    /// A threshold from the widest gap between the contact peaks, or nil when they form one group.
    public var suggestion: ThresholdSuggestion? { ThresholdSuggestion(peaks: contactPeaks) }

    /// One entry per device of the trace, in header order.
    public static func analyze(_ trace: Trace) -> [PressureStatistics] {
        var analysis = PressureAnalysis(header: trace.header)
        for event in trace.events { analysis.add(event) }
        return analysis.statistics
    }
}

/// The statistics of a trace gathered one event at a time, for a trace read as it goes: it
/// keeps one peak per contact and the distinct pressure levels, never the events.
public struct PressureAnalysis: Sendable {
    private var stats: [PressureStatistics]
    private var index: [Int: Int] = [:]
    private var levels: [Int: Set<Double>] = [:]
    /// Which slot of contactPeaks each open contact writes to.
    /// Contacts down now.
    private var begun: Set<ContactKey> = []
    private var open: [ContactKey: Int] = [:]

    public init(header: TraceHeader) {
        stats = header.devices.map {
            PressureStatistics(device: $0, samples: 0, contacts: 0, distinctLevels: 0, minimum: nil, maximum: nil,
                               histogram: Array(repeating: 0, count: PressureStatistics.bins), contactPeaks: [])
        }
        for (position, device) in header.devices.enumerated() { index[device.id] = position }
    }

    public mutating func add(_ event: ContactEvent) {
        let bins = PressureStatistics.bins
        guard let slot = index[event.device] else { return }
        let key = ContactKey(device: event.device, contact: event.contact)
        switch event.phase {
        case .begin:
            stats[slot].contacts += 1
            begun.insert(key)
        case .move:
            guard begun.contains(key) else { return }
        case .end, .cancel:
            begun.remove(key)
            open[key] = nil
            return
        case .hover:
            return
        }
        stats[slot].samples += 1
        guard let raw = event.pressure, let range = stats[slot].device.pressure else { return }
        levels[event.device, default: []].insert(raw)
        stats[slot].minimum = Swift.min(stats[slot].minimum ?? raw, raw)
        stats[slot].maximum = Swift.max(stats[slot].maximum ?? raw, raw)
        let force = range.normalize(raw)
        stats[slot].histogram[Swift.min(bins - 1, Int(force * Double(bins)))] += 1
        // A contact has a peak once it has said a force: one without any (a mouse, a line
        // without pressure) is no contact of force 0.
        if let peakSlot = open[key] {
            stats[slot].contactPeaks[peakSlot] = Swift.max(stats[slot].contactPeaks[peakSlot], force)
        } else if begun.contains(key) {
            open[key] = stats[slot].contactPeaks.count
            stats[slot].contactPeaks.append(force)
        }
    }

    /// One entry per device of the trace, in header order.
    public var statistics: [PressureStatistics] {
        var result = stats
        for (position, device) in result.map(\.device).enumerated() {
            result[position].distinctLevels = levels[device.id]?.count ?? 0
        }
        return result
    }
}

/// Contact peaks (normalized forces) as percentiles and a histogram.
public struct PeakSummary: Sendable, Hashable {
    /// The percentiles given, by name: the lowest peak, the 10th, 25th, 50th, 75th and 90th
    /// percentiles (nearest rank), and the highest.
    public static let percentileNames = ["min", "p10", "p25", "median", "p75", "p90", "max"]
    private static let fractions = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]

    public var count: Int
    /// One value per name in `percentileNames`; empty for no contacts.
    public var percentiles: [Double]
    public var histogram: [Int]

    public init(_ peaks: [Double]) {
        let finite = peaks.filter(\.isFinite)
        count = finite.count
        histogram = Array(repeating: 0, count: PressureStatistics.bins)
        for peak in finite {
            histogram[Swift.min(PressureStatistics.bins - 1, Swift.max(0, Int(peak * Double(PressureStatistics.bins))))] += 1
        }
        percentiles = finite.isEmpty ? [] : Self.fractions.compactMap { fraction in
            fraction == 0 ? finite.min() : ThresholdSuggestion.percentile(fraction, of: finite)
        }
    }
}
