/// A deep-press threshold chosen from how a person presses: the peaks of their ordinary
/// contacts (taps, strokes, resting the pen) and of their deliberate hard presses.
///
/// The threshold sits halfway across the gap between the two groups, so an ordinary touch
/// pressed a little harder than usual, or a hard press a little lighter, still lands on its
/// own side. The release sits halfway between the ordinary peak and the threshold (a deep
/// press ends only once the force is back among ordinary touches), and `ordinary` is the
/// ordinary peak itself: a still press that levels off at or below it is handed to the
/// application at once (see `HoldPolicy`).
///
/// Each group is summarised by a percentile, not its extreme, so one stray contact does not
/// move the threshold: the ordinary group by its 90th percentile, the hard group by its 10th.
public struct ThresholdSuggestion: Sendable, Hashable {
    /// The force most ordinary contacts stay under (90th percentile of their peaks).
    public var ordinaryPeak: Double
    /// The force most hard presses reach (10th percentile of their peaks).
    public var hardPeak: Double
    public var threshold: Double
    public var release: Double
    public var ordinary: Double

    /// `hardPeak - ordinaryPeak`: how far apart the two groups are. Negative when they overlap.
    public var margin: Double { hardPeak - ordinaryPeak }

    /// Below this margin a threshold between the groups is too close to both: a slightly firm
    /// tap would right-click, or a slightly light hard press would not.
    public static let smallestUsefulMargin = 0.1

    /// Whether the groups are far enough apart for a threshold between them to be reliable.
    public var isReliable: Bool { margin >= Self.smallestUsefulMargin - Self.tolerance }

    /// Forces are quotients of raw pressure, so a gap of exactly 0.1 (200 and 300 of 1000)
    /// comes out as 0.09999999999999998; comparisons against `smallestUsefulMargin` allow
    /// for that rather than reject a gap the documentation promises to accept.
    private static let tolerance = 1e-9

    /// The two groups overlap: some ordinary contact pressed as hard as some hard press.
    public var overlaps: Bool { margin <= 0 }

    /// A suggestion from the peaks (normalized forces, 0...1) of the two groups; nil when a
    /// group is empty.
    public init?(ordinaryPeaks: [Double], hardPeaks: [Double]) {
        guard let ordinaryPeak = Self.percentile(0.9, of: ordinaryPeaks),
              let hardPeak = Self.percentile(0.1, of: hardPeaks) else { return nil }
        self.ordinaryPeak = ordinaryPeak
        self.hardPeak = hardPeak
        // Rounded to two decimals: these go into a config a person reads and edits. The
        // threshold stays within what the config accepts and above the release.
        // The lowest threshold that leaves room for a release below it (a device whose
        // pressure stays low in its range).
        let threshold = Self.rounded(min(1, max(0.02, (ordinaryPeak + hardPeak) / 2)))
        self.threshold = threshold
        // Rounded after the clamp too: `threshold - 0.01` alone would print as 0.6799999999999999 for 0.69.
        self.release = Self.rounded(min(threshold - 0.01, max(0, (min(ordinaryPeak, threshold) + threshold) / 2)))
        // As the learning rule places it (`LearningRule`): above the hardest ordinary contact
        // by a little, and at least half the threshold, as the defaults have it (0.35 of 0.7),
        // so a still press a little firmer than the taps measured levels off and goes to the
        // application at once instead of being held until it lifts.
        let hardestOrdinary = ordinaryPeaks.filter(\.isFinite).max() ?? ordinaryPeak
        let ordinary = max(hardestOrdinary + LearningRule.ordinaryHeadroom, threshold / 2)
        let gap = min(LearningRule.ordinaryGap, threshold / 2)
        self.ordinary = Self.rounded(max(0, min(self.release, threshold - gap, ordinary)))
    }

    /// The fewest ordinary contacts and hard presses one recording's suggestion is made from
    /// (`init(peaks:)`): each group is summarised by a percentile, which two or three contacts
    /// cannot give (one firm tap of two would be the ordinary group's 90th percentile).
    public static let fewestContacts = (ordinary: 5, hard: 3)

    /// One recording's contact peaks split at their widest gap of at least
    /// `smallestUsefulMargin`, among the cuts that leave `fewest` contacts or more on each
    /// side: the ordinary contacts below it, the hard presses above; nil when there is none.
    /// (Found in review: a light graze far below the strokes, or one press to the maximum,
    /// made the widest gap one that split a contact off alone.)
    public static func split(peaks: [Double], fewest: (ordinary: Int, hard: Int) = (1, 1)) -> (ordinary: [Double], hard: [Double])? {
        let sorted = peaks.filter(\.isFinite).sorted()
        let (below, above) = (Swift.max(1, fewest.ordinary), Swift.max(1, fewest.hard))
        guard sorted.count >= below + above else { return nil }
        var widest = (gap: 0.0, index: 0)
        for index in below...(sorted.count - above) where sorted[index] - sorted[index - 1] > widest.gap {
            widest = (sorted[index] - sorted[index - 1], index)
        }
        guard widest.gap >= Self.smallestUsefulMargin - Self.tolerance else { return nil }
        return (Array(sorted[..<widest.index]), Array(sorted[widest.index...]))
    }

    /// A suggestion from one recording's contact peaks, split with at least `fewestContacts`
    /// on each side (`split(peaks:fewest:)`); nil when there is no such split.
    public init?(peaks: [Double]) {
        guard let (ordinary, hard) = Self.split(peaks: peaks, fewest: Self.fewestContacts) else { return nil }
        self.init(ordinaryPeaks: ordinary, hardPeaks: hard)
    }

    /// The device's own deep press at these levels: `current`, the deep press the config
    /// gives the device now, with all it says besides the levels kept (where it applies, what
    /// it does, its slop and feedback), or else the built-in right-click. Named after the
    /// device, so a later calibration of the same device replaces it.
    public func deepPress(forDevice device: String, basedOn current: Binding? = nil, named name: String? = nil) -> Binding {
        var binding = current ?? Binding(name: "", recognizer: .deepPress(.init()), feedback: [.pulse, .ring],
                                         onStart: [.click(button: 3)])
        var slop = DeepPressRecognizer.Configuration.Keys.slop.standard
        if case .deepPress(let configuration)? = current?.recognizer { slop = configuration.slop }
        binding.name = name ?? Self.bindingName(forDevice: device)
        binding.devices = [.named(device)]
        binding.recognizer = .deepPress(.init(threshold: threshold, release: release, slop: slop, ordinary: ordinary))
        return binding
    }

    /// `deepPress(forDevice:basedOn:)` as YAML lines of an item of the `bindings:` list
    /// (indented two spaces), ready to paste or to insert.
    public func binding(forDevice device: String, basedOn current: Binding? = nil, named name: String? = nil) -> String {
        let binding = deepPress(forDevice: device, basedOn: current, named: name)
        var lines = ConfigRenderer.item(binding)
        // The name is letters, digits and dashes (`bindingName`): written plain, as a person would.
        lines[0] = "  - name: \(binding.name)"
        return lines.joined(separator: "\n") + "\n"
    }

    /// `right-click-` and the device's name in lower case, other characters as dashes.
    public static func bindingName(forDevice device: String) -> String {
        var slug = ""
        for character in device.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        return "right-click-" + (slug.isEmpty ? "device" : slug)
    }

    /// The name `device`'s binding takes among `bindings` (a config's): `bindingName(forDevice:)`,
    /// unless a binding of that name is not this device's alone, when the first of `-2`, `-3`, …
    /// that is free or is. Found in review: two devices whose names differ only in what a name
    /// leaves out ("ELAN Touchscreen" and "ELAN-Touchscreen", letters beyond ASCII) got one
    /// name, and calibrating the second replaced the first one's binding.
    public static func bindingName(forDevice device: String, among bindings: [Binding]) -> String {
        let base = bindingName(forDevice: device)
        var name = base
        var number = 1
        while let existing = bindings.first(where: { $0.name == name }), existing.devices != [.named(device)] {
            number += 1
            name = "\(base)-\(number)"
        }
        return name
    }

    /// The `fraction` percentile (0...1) by the nearest-rank method; nil for no values.
    public static func percentile(_ fraction: Double, of values: [Double]) -> Double? {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
