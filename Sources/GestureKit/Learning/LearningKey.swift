/// What a device's learned state is kept under: its name and, where X says them, its vendor and
/// product ids ("Wacom Intuos S Pen [056a:0374]"), so two models that share a name (a pen of
/// one brand and a screen of another both called "Pen") learn apart; the name alone where X
/// says no ids.
///
/// A state kept before the ids were part of the key is under the name alone: `PressLearning`
/// still finds it for a device of that name, and `run` carries it over to the full key.
public enum LearningKey {
    public static func key(name: String, product: DeviceProduct?) -> String {
        product.map { "\(name) [\($0)]" } ?? name
    }

    /// The device name a key was made from: the key without its " [vendor:product]".
    public static func name(of key: String) -> String {
        parts(of: key).name
    }

    /// The vendor and product ids a key was made with; nil for a key of the name alone.
    public static func product(of key: String) -> DeviceProduct? {
        parts(of: key).product
    }

    /// Whether a device called `name` without ids is among `devices` (name and ids).
    public static func nameAloneInUse(by name: String, among devices: [(name: String, product: DeviceProduct?)]) -> Bool {
        devices.contains { $0.name == name && $0.product == nil }
    }

    private static func parts(of key: String) -> (name: String, product: DeviceProduct?) {
        guard key.hasSuffix("]"), let open = key.lastIndex(of: "["), open > key.startIndex,
              key[key.index(before: open)] == " ",
              let product = DeviceProduct(key[key.index(after: open)..<key.index(before: key.endIndex)])
        else { return (key, nil) }
        return (String(key[..<key.index(before: open)]), product)
    }
}

extension InputDevice {
    /// What this device's learned state is kept under (`LearningKey`).
    public var learningKey: String { LearningKey.key(name: name, product: product) }
}

extension PressLearning {
    /// The learner kept for a device of this name and these ids: under its key, else under its
    /// name alone when that state was kept before the ids were part of the key
    /// (`keptBeforeIDs`); nil when neither is. `nameAloneInUse`: a device of that name without
    /// ids is connected, so what is under the name alone is its own, never another's (two
    /// different devices both called "Pen").
    public func learner(name: String, product: DeviceProduct?, nameAloneInUse: Bool = false) -> HandLearner? {
        if let own = devices[LearningKey.key(name: name, product: product)] { return own }
        guard let product else { return nil }
        if !nameAloneInUse, keptBeforeIDs.contains(name), let kept = devices[name] { return kept }
        return otherLink(name: name, product: product)
    }

    /// The learner of the same device over its other link, where it has none of its own yet:
    /// one kept under this name and vendor with another product id (a Wacom Intuos BT is
    /// 056a:0377 over Bluetooth and 056a:0376 over its cable, by one name). The hand is the same:
    /// the device starts from what it learned there (calibrated there, it is calibrated here)
    /// and learns on under its own key. Of several, the one that saw the most contacts.
    func otherLink(name: String, product: DeviceProduct) -> HandLearner? {
        otherLinkKey(name: name, product: product).flatMap { devices[$0] }
    }

    /// The key `otherLink` takes its learner from; nil when there is none.
    public func otherLinkKey(name: String, product: DeviceProduct) -> String? {
        var best: (key: String, contacts: Int)?
        for (key, learner) in devices.sorted(by: { $0.key < $1.key }) {
            guard let kept = LearningKey.product(of: key), kept.vendor == product.vendor, kept != product,
                  LearningKey.name(of: key) == name else { continue }
            if best.map({ learner.ordinaryContacts > $0.contacts }) ?? true { best = (key, learner.ordinaryContacts) }
        }
        return best?.key
    }

    /// The learner kept for `device` (`learner(name:product:)`), with no other device connected.
    public func learner(for device: InputDevice) -> HandLearner? {
        learner(for: device, among: [device])
    }

    /// The learner kept for `device` among the devices `connected` (`learner(name:product:nameAloneInUse:)`).
    public func learner(for device: InputDevice, among connected: some Sequence<InputDevice>) -> HandLearner? {
        if let own = devices[device.learningKey] { return own }
        // Asked on every contact's begin: the devices looked through only where it can matter.
        guard let product = device.product else { return nil }
        if keptBeforeIDs.contains(device.name), !connected.contains(where: { $0.name == device.name && $0.product == nil }),
           let kept = devices[device.name] {
            return kept
        }
        return otherLink(name: device.name, product: product)
    }
}
