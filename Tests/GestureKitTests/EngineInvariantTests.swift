import Foundation
import Testing
@testable import GestureKit
import SeededRandom

/// Whatever a session throws at the engine (devices unplugged and plugged back mid-press,
/// another button handing a press to the application, config reloads, timestamps that repeat
/// or trail the bridge's own clock, pressures out of range), it keeps the promises the bridge
/// builds on (`PromiseChecker`): every contact decided exactly once, an owning gesture acting
/// only on a contact it won and clicking at most once, every button pressed let go once all
/// contacts are up, nothing said for a device already unplugged, nothing stamped before its
/// contact began or after the latest time the engine was told, output times in order while the
/// clock never went back, a finite next deadline, learned levels ordered and within 0.25-0.9,
/// and never a `.bug`.
///
/// Each test drives a few hundred sessions from fixed seeds, each with its own emphasis. A
/// broken promise is reported with its seed and the session shrunk to the steps that still
/// break it, with what the engine said after each, so it can be replayed as a script.
@Suite("The engine's promises over random sessions")
struct EngineInvariantTests {
    @Test("everyday sessions of two pens, an eraser, touchscreens and a mouse keep every promise")
    func everyday() {
        Self.expectPromisesKept(.everyday, seeds: 0..<300, reaching: \.claims)
    }

    @Test("devices unplugged and plugged back mid-press leave no button held and say nothing after they went")
    func unplugging() {
        Self.expectPromisesKept(.unplugging, seeds: 1000..<1300, reaching: \.contactsCutByUnplugging)
    }

    @Test("presses handed to the application by another button are decided once and never acted on")
    func handOvers() {
        Self.expectPromisesKept(.handOvers, seeds: 2000..<2300, reaching: \.contactsHandedOver)
    }

    @Test("repeated timestamps, events stamped behind the bridge's clock, wild pressures and positions break nothing")
    func oddInput() {
        Self.expectPromisesKept(.oddInput, seeds: 3000..<3300, reaching: \.eventsBehindTheTimers)
    }

    @Test("config reloads with contacts down let those contacts finish as they began")
    func reloads() {
        Self.expectPromisesKept(.reloads, seeds: 4000..<4300, reaching: \.reloadsWithContactsDown)
    }

    /// The checker is what makes the sessions above worth running: fed outputs that break a
    /// promise, it must say which.
    @Test("the checker notices a second click, a release never pressed, and a button left held")
    func checkerIsNotBlind() {
        let key = ContactKey(device: SessionDevice.pen.rawValue, contact: 0)
        func said(_ action: Action, by gesture: String) -> EngineOutput {
            .action(ActionEvent(time: 0.1, gesture: gesture, contact: key, action: action, position: Point(x: 10, y: 10)))
        }
        func checkerWithThePenDown() -> PromiseChecker {
            var checker = PromiseChecker(timesOnlyMoveForward: true)
            checker.told(0.1)
            checker.began(key, at: 0)
            return checker
        }
        // "hold-deep-press" owns its contacts; "force-keys" only watches.
        var checker = checkerWithThePenDown()
        let claim = EngineOutput.decision(.claim(key, gesture: "hold-deep-press", time: 0.1, held: 0.1))
        let firstClick = checker.check([claim, said(.click(button: 3), by: "hold-deep-press")])
        #expect(firstClick == nil)
        let secondClick = checker.check([said(.click(button: 3), by: "hold-deep-press")])
        #expect(secondClick?.promise == .secondClick)

        checker = checkerWithThePenDown()
        let releaseOnly = checker.check([said(.release(button: 8), by: "force-keys")])
        #expect(releaseOnly?.promise == .releasedUnpressed)

        checker = checkerWithThePenDown()
        let release = EngineOutput.decision(.release(key, reason: .ended, time: 0.1, held: 0.1))
        let pressOnly = checker.check([release, said(.press(button: 8), by: "force-keys")])
        #expect(pressOnly == nil)
        let lift = checker.ended([key])
        #expect(lift?.promise == .leftHeldByContact)
    }

    /// Runs the sessions of `seeds` with `mix`; reports each broken promise (the first three in
    /// full), and that the sessions reached what the mix is for at least once.
    static func expectPromisesKept(_ mix: SessionMix, seeds: Range<UInt64>, reaching aim: KeyPath<SessionTally, Int>,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        var tally = SessionTally()
        var broken = 0
        for seed in seeds {
            let script = SessionGenerator.script(seed: seed, mix: mix)
            let outcome = SessionRun.run(script)
            tally.add(outcome.tally)
            guard let promise = outcome.broken else { continue }
            broken += 1
            guard broken <= 3 else { continue }
            let shrunk = SessionShrinker.shrink(script, breaking: promise.promise)
            let replay = SessionRun.run(shrunk, tracing: true)
            Issue.record("""
                seed \(seed) of the \(mix.name) sessions broke a promise: \(promise)
                shrunk from \(script.steps.count) to \(shrunk.steps.count) steps, \(shrunk.setting); \
                what the engine said follows each step:
                \(replay.trace.joined(separator: "\n"))
                then: \(replay.broken.map(String.init(describing:)) ?? "the shrunk session kept every promise")
                """, sourceLocation: sourceLocation)
        }
        #expect(broken == 0, "\(broken) of \(seeds.count) \(mix.name) sessions broke a promise", sourceLocation: sourceLocation)
        #expect(tally[keyPath: aim] > 0, "the \(mix.name) sessions never reached what they are for: \(tally)",
                sourceLocation: sourceLocation)
    }
}

// MARK: The world the sessions happen in

/// The devices plugged in at a session's start, by their X ids.
enum SessionDevice: Int, CaseIterable, Comparable, CustomStringConvertible {
    case pen = 11
    case touchscreen = 12
    case mouse = 13
    case flatTouchscreen = 14
    case secondPen = 15
    case eraser = 16

    static func < (left: SessionDevice, right: SessionDevice) -> Bool { left.rawValue < right.rawValue }

    var name: String {
        switch self {
        case .pen: "Session Pen stylus"
        case .touchscreen: "Session Touchscreen"
        case .mouse: "Session Mouse"
        case .flatTouchscreen: "Session Flat Touchscreen"
        case .secondPen: "Session Second Pen"
        case .eraser: "Session Pen eraser"
        }
    }

    var kind: DeviceKind {
        switch self {
        case .pen, .secondPen: .pen
        case .touchscreen, .flatTouchscreen: .touch
        case .mouse: .mouse
        case .eraser: .eraser
        }
    }

    /// The pressure axis as the device declares it.
    var declaredPressure: PressureRange? {
        switch self {
        case .pen, .eraser: PressureRange(min: 0, max: 1000)
        case .touchscreen: PressureRange(min: 0, max: 2047)
        case .secondPen: PressureRange(min: 0, max: 4095)
        case .mouse, .flatTouchscreen: nil
        }
    }

    /// A pen, an eraser or a mouse: one contact, which another button can hand to the application.
    var isPointer: Bool { kind != .touch }

    func inputDevice(_ variant: PressureVariant) -> InputDevice {
        InputDevice(id: rawValue, name: name, kind: kind, pressure: variant.pressure(declared: declaredPressure))
    }

    var description: String {
        switch self {
        case .pen: "pen"
        case .touchscreen: "touchscreen"
        case .mouse: "mouse"
        case .flatTouchscreen: "flat touchscreen"
        case .secondPen: "second pen"
        case .eraser: "eraser"
        }
    }

    /// Learned changes name their device; every session device's name is its own.
    static let idsByName: [String: Int] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0.rawValue) })
}

/// How a device declares its pressure when plugged (back) in: X may describe it anew.
enum PressureVariant: CaseIterable, CustomStringConvertible {
    case declared
    case withoutPressure
    case sixteenBit

    func pressure(declared: PressureRange?) -> PressureRange? {
        switch self {
        case .declared: return declared
        case .withoutPressure: return nil
        case .sixteenBit: return declared == nil ? nil : PressureRange(min: 0, max: 65535)
        }
    }

    var description: String {
        switch self {
        case .declared: "as declared"
        case .withoutPressure: "without pressure"
        case .sixteenBit: "with 16-bit pressure"
        }
    }
}

/// The configs a session runs and reloads.
enum SessionConfiguration: CaseIterable, CustomStringConvertible {
    case builtInDefault
    case holds
    case watchers
    case empty
    case learning

    static var knob: KnobSettings {
        KnobSettings(centerX: ScreenCoordinate(300), centerY: ScreenCoordinate(300),
                                   innerRadius: 20, outerRadius: 200, activation: 20)
    }

    /// Read once: `ConfigLoader.builtInDefault` parses the YAML anew at every call.
    private static let defaultBindings = ConfigLoader.builtInDefault

    var bindingSet: BindingSet {
        switch self {
        case .builtInDefault:
            Self.defaultBindings
        case .holds:
            BindingSet(bindings: [
                Binding(name: "hold-deep-press", recognizer: .deepPress(.init(threshold: 0.6)), devices: [.kind(.pen), .kind(.touch)],
                        feedback: [.ring, .pulse], onStart: [.press(button: 3)], onEnd: [.release(button: 3)]),
                Binding(name: "hold-long-press", recognizer: .longPress(.init(duration: 0.4)), devices: [.kind(.touch), .kind(.mouse)],
                        onStart: [.press(button: 1)], onEnd: [.release(button: 1)]),
                Binding(name: "scroll-knob", recognizer: .knob(Self.knob), devices: [.kind(.pen), .kind(.touch), .kind(.mouse)],
                        onStart: [.press(button: 2)], onEnd: [.release(button: 2)],
                        steps: StepActions(step: 15, increase: [.scroll(.up, steps: 1)], decrease: [.scroll(.down, steps: 1)])),
            ])
        case .watchers:
            BindingSet(bindings: [
                Binding(name: "squeeze", recognizer: .squeeze(.init(threshold: 0.5)), devices: [.kind(.touch), .kind(.pen)],
                        onStart: [.press(button: 9)], onEnd: [.release(button: 9)]),
                Binding(name: "force-keys", recognizer: .force(.init()), ownsContact: false,
                        steps: StepActions(step: 0.1, increase: [.key(KeyCombo(keys: ["a"]))], decrease: [.key(KeyCombo(keys: ["b"]))])),
                Binding(name: "pressure-steps", recognizer: .pressureThresholds(.init(thresholds: [0.3, 0.7])),
                        onCrossUp: [.press(button: 8)], onCrossDown: [.release(button: 8)]),
                Binding(name: "second-pen-click", recognizer: .deepPress(.init(threshold: 0.5)), devices: [.named(SessionDevice.secondPen.name)],
                        onStart: [.click(button: 3)]),
                Binding(name: "pen-deep-hold", recognizer: .deepPress(.init(threshold: 0.8)), devices: [.kind(.pen), .kind(.eraser)],
                        onStart: [.press(button: 7)], onEnd: [.release(button: 7)]),
            ], decisionTimeout: 0.3, holdLimit: 1)
        case .empty:
            BindingSet(bindings: [])
        case .learning:
            BindingSet(bindings: [
                Binding(name: "learned-deep-press", recognizer: .deepPress(.init(learned: true)),
                        devices: [.kind(.pen), .kind(.touch), .kind(.eraser)],
                        feedback: [.ring], onStart: [.press(button: 3)], onEnd: [.release(button: 3)]),
                Binding(name: "long-press-click", recognizer: .longPress(.init(duration: 0.2)), devices: [.kind(.mouse), .kind(.touch)],
                        pressure: .absent, onStart: [.click(button: 3)]),
            ], decisionTimeout: 0.1, holdLimit: 0.3)
        }
    }

    /// The names of every owning binding of every config: their actions need the contact won.
    static let owningGestures: Set<String> = Set(allCases.flatMap { $0.bindingSet.bindings.filter(\.ownsContact).map(\.name) })

    var description: String {
        switch self {
        case .builtInDefault: "built-in default"
        case .holds: "holds and knob"
        case .watchers: "watching"
        case .empty: "empty"
        case .learning: "learning"
        }
    }
}

// MARK: Sessions

/// One contact of a session's device: a touchscreen's finger, or a pen's or mouse's only one.
struct SessionContact: Hashable, Comparable, CustomStringConvertible {
    var device: SessionDevice
    var finger: Int

    var key: ContactKey { ContactKey(device: device.rawValue, contact: finger) }

    static func < (left: SessionContact, right: SessionContact) -> Bool { left.key < right.key }

    var description: String { device.kind == .touch ? "\(device) finger \(finger)" : "\(device)" }
}

/// When and where an event is, and the pressure it carries in the device's raw units.
struct SessionSample: Hashable, CustomStringConvertible {
    var time: Double
    var position: Point
    var pressure: Double?

    var description: String {
        "at \(time) (\(position.x), \(position.y))" + (pressure.map { " pressure \($0)" } ?? "")
    }
}

/// One thing that happens in a session, as the bridge passes it to the engine.
enum SessionStep: CustomStringConvertible {
    case down(SessionContact, SessionSample, window: WindowClass?, handedOver: ReleaseReason?)
    case move(SessionContact, SessionSample)
    case lift(SessionContact, SessionSample)
    case cancel(SessionContact, at: Double)
    case hover(SessionDevice, SessionSample)
    /// The bridge's clock reached `at`: the engine's timers due by then fire.
    case timers(at: Double)
    /// `disabled`: switched off (a VT switch), not gone: what was found of its pressure holds.
    case unplug(SessionDevice, at: Double, disabled: Bool)
    case plug(SessionDevice, PressureVariant)
    case reload(SessionConfiguration)
    /// Another button of the contact's master went down (a pen's side button): the bridge
    /// fires the timers due by then, and hands the contact to the application.
    case anotherButton(SessionContact, at: Double)

    var description: String {
        switch self {
        case let .down(contact, sample, window, handedOver):
            "\(contact) down \(sample)" + (window.map { " over \($0)" } ?? "")
                + (handedOver.map { ", handed over: \($0.rawValue)" } ?? "")
        case let .move(contact, sample): "\(contact) moves \(sample)"
        case let .lift(contact, sample): "\(contact) lifts \(sample)"
        case let .cancel(contact, time): "\(contact) cancelled at \(time)"
        case let .hover(device, sample): "\(device) hovers \(sample)"
        case let .timers(time): "timers due by \(time) fire"
        case let .unplug(device, time, disabled): "\(device) \(disabled ? "disabled" : "unplugged") at \(time)"
        case let .plug(device, variant): "\(device) plugged in \(variant)"
        case let .reload(configuration): "config reloaded: \(configuration)"
        case let .anotherButton(contact, time): "another button of the \(contact) pressed at \(time)"
        }
    }

    /// The time the step tells the engine, if any.
    var time: Double? {
        switch self {
        case let .down(_, sample, _, _), let .move(_, sample), let .lift(_, sample), let .hover(_, sample): sample.time
        case let .cancel(_, time), let .timers(time), let .unplug(_, time, _), let .anotherButton(_, time): time
        case .plug, .reload: nil
        }
    }
}

/// A whole session: how the engine starts, and what happens.
struct SessionScript {
    var lessonGrace: Double
    var configuration: SessionConfiguration
    var steps: [SessionStep]

    var setting: String { "starting with the \(configuration) config, lesson grace \(lessonGrace) s" }

    /// Whether no step tells the engine a time earlier than one before it.
    var timesOnlyMoveForward: Bool {
        var latest = -Double.infinity
        for time in steps.compactMap(\.time) {
            if time < latest { return false }
            latest = time
        }
        return true
    }
}

/// How often a session does each less common thing.
struct SessionMix {
    var name: String
    /// Of the steps that neither touch nor move a contact, the share that unplug a device,
    /// plug one (back) in, reload the config, and press another button; the rest fire timers.
    var unplug = 0.15
    var plug = 0.1
    var reload = 0.1
    var anotherButton = 0.1
    /// The chance a contact is the application's from its begin (another button already down,
    /// or a finger beside one the application holds).
    var handedOverAtBegin = 0.04
    /// The chance of each of three impossible pressures (not a number, below the range, far above it).
    var oddPressure = 0.0
    var farPosition = 0.0
    var repeatedStamp = 0.05
    /// The chance the bridge's clock runs up to 50 ms ahead of the stamps of events not yet read.
    var clockAhead = 0.0

    static let everyday = SessionMix(name: "everyday")
    static let unplugging = SessionMix(name: "unplugging", unplug: 0.35, plug: 0.3, reload: 0.05, anotherButton: 0.05)
    static let handOvers = SessionMix(name: "hand-over", unplug: 0.05, plug: 0.05, reload: 0.05, anotherButton: 0.5,
                                      handedOverAtBegin: 0.25)
    static let oddInput = SessionMix(name: "odd input", oddPressure: 0.03, farPosition: 0.05, repeatedStamp: 0.25, clockAhead: 0.6)
    static let reloads = SessionMix(name: "reload", unplug: 0.05, plug: 0.05, reload: 0.5, anotherButton: 0.05)
}

/// Draws a session from a seed. X stamps events with a clock that never goes back (a stamp
/// may repeat), so no event is ever stamped before its contact began; the bridge fires timers
/// and unplugs devices by its own clock, which may run ahead of the stamps of events it has
/// not read yet.
struct SessionGenerator {
    private struct Pose {
        var position: Point
        var force: Double
    }

    private var random: SplitMix64
    private let mix: SessionMix
    private var stampMilliseconds = 0
    private var bridgeMilliseconds = 0
    private var plugged: [SessionDevice: PressureVariant] =
        Dictionary(uniqueKeysWithValues: SessionDevice.allCases.map { ($0, .declared) })
    private var down: [SessionContact: Pose] = [:]
    private var steps: [SessionStep] = []

    private init(seed: UInt64, mix: SessionMix) {
        random = SplitMix64(seed: seed)
        self.mix = mix
    }

    static func script(seed: UInt64, mix: SessionMix) -> SessionScript {
        var generator = SessionGenerator(seed: seed, mix: mix)
        let configuration = generator.chance(0.5) ? generator.pick(SessionConfiguration.allCases) : .builtInDefault
        // Replays teach at once; the live bridge waits 0.3 s (`Bridge.lessonGrace`).
        let grace = generator.chance(0.5) ? 0.3 : 0
        for _ in 0..<generator.whole(10...140) { generator.addStep() }
        // Every contact lifts at the end, and the timers run out.
        for contact in generator.down.keys.sorted() {
            generator.lift(contact)
        }
        generator.stampMilliseconds += 20_000
        let end = generator.seconds(max(generator.stampMilliseconds, generator.bridgeMilliseconds))
        generator.steps.append(.timers(at: end))
        return SessionScript(lessonGrace: grace, configuration: configuration, steps: generator.steps)
    }

    private mutating func addStep() {
        let roll = unit()
        let contactsDown = down.keys.sorted()
        if !contactsDown.isEmpty, roll < 0.55 {
            follow(pick(contactsDown))
        } else if roll < 0.8 {
            touch()
        } else {
            var share = unit()
            if share < mix.unplug { return unplug() }
            share -= mix.unplug
            if share < mix.plug {
                let device = pick(SessionDevice.allCases)
                let variant = pick(PressureVariant.allCases)
                plugged[device] = variant
                return steps.append(.plug(device, variant))
            }
            share -= mix.plug
            if share < mix.reload { return steps.append(.reload(pick(SessionConfiguration.allCases))) }
            share -= mix.reload
            let pointers = contactsDown.filter(\.device.isPointer)
            if share < mix.anotherButton, !pointers.isEmpty {
                let contact = pick(pointers)
                let time = seconds(nextStamp())
                return steps.append(.anotherButton(contact, at: time))
            }
            let quiet = nextStamp()
            let ahead = chance(mix.clockAhead) ? whole(1...50) : 0
            bridgeMilliseconds = max(bridgeMilliseconds, quiet + ahead)
            steps.append(.timers(at: seconds(bridgeMilliseconds)))
        }
    }

    /// A contact down lifts, is cancelled, or moves: harder, lighter, a little, round the knob, or far.
    private mutating func follow(_ contact: SessionContact) {
        guard var pose = down[contact] else { return }
        let roll = unit()
        if roll < 0.12 { return lift(contact) }
        if roll < 0.14 {
            down[contact] = nil
            let time = seconds(nextStamp())
            return steps.append(.cancel(contact, at: time))
        }
        let how = unit()
        var x = pose.position.x, y = pose.position.y
        if how < 0.4 {
            pose.force = min(1, max(0, pose.force + number(-0.08...0.15)))
        } else if how < 0.55 {
            pose.force = number(0...1)
        } else if how < 0.75 {
            x += number(-4...4)
            y += number(-4...4)
        } else if how < 0.85 {
            let angle = atan2(y - 300, x - 300) + number(-0.3...0.5)
            let radius = max(30, min(190, hypot(x - 300, y - 300)))
            x = 300 + radius * cos(angle)
            y = 300 + radius * sin(angle)
        } else if how < 0.95 {
            x += number(-60...60)
            y += number(-60...60)
        } else {
            x = coordinate()
            y = coordinate()
        }
        pose.position = Point(x: x.rounded(), y: y.rounded())
        down[contact] = pose
        let moved = sample(contact.device, at: pose.position, force: pose.force)
        steps.append(.move(contact, moved))
    }

    private mutating func lift(_ contact: SessionContact) {
        guard let pose = down.removeValue(forKey: contact) else { return }
        let lifted = sample(contact.device, at: pose.position, force: 0)
        steps.append(.lift(contact, lifted))
    }

    /// A device plugged in touches down, or a pen hovers.
    private mutating func touch() {
        let devices = plugged.keys.sorted()
        guard !devices.isEmpty else { return }
        let device = pick(devices)
        let contact = SessionContact(device: device, finger: device.kind == .touch ? whole(0...2) : 0)
        guard down[contact] == nil else { return }
        let position = Point(x: coordinate(), y: coordinate())
        if device.kind.isPen, chance(0.35) {
            let hovering = SessionSample(time: seconds(nextStamp()), position: position)
            return steps.append(.hover(device, hovering))
        }
        let force = chance(0.2) ? number(0.5...1) : number(0...0.3)
        let window = pick([nil, WindowClass(instance: "gimp", className: "Gimp"), WindowClass(instance: "xterm", className: "XTerm")])
        var handedOver: ReleaseReason?
        if chance(mix.handedOverAtBegin) {
            handedOver = device.isPointer ? ReleaseReason.anotherButton : pick([ReleaseReason.anotherButton, .anotherFinger])
        }
        down[contact] = Pose(position: position, force: force)
        let touched = sample(device, at: position, force: force)
        steps.append(.down(contact, touched, window: window, handedOver: handedOver))
    }

    private mutating func unplug() {
        let devices = plugged.keys.sorted()
        guard !devices.isEmpty else { return }
        let device = pick(devices)
        plugged[device] = nil
        down = down.filter { $0.key.device != device }
        let stamp = nextStamp()
        let ahead = chance(mix.clockAhead) ? whole(1...50) : 0
        bridgeMilliseconds = max(bridgeMilliseconds, stamp + ahead)
        steps.append(.unplug(device, at: seconds(bridgeMilliseconds), disabled: chance(0.5)))
    }

    private mutating func sample(_ device: SessionDevice, at position: Point, force: Double) -> SessionSample {
        SessionSample(time: seconds(nextStamp()), position: position, pressure: pressure(device, force: force))
    }

    /// The next event's stamp: X's clock, in milliseconds, repeated now and then, late sometimes.
    private mutating func nextStamp() -> Int {
        if chance(mix.repeatedStamp) { return stampMilliseconds }
        stampMilliseconds += chance(0.15) ? whole(100...1500) : whole(2...20)
        return stampMilliseconds
    }

    private func seconds(_ milliseconds: Int) -> Double { Double(milliseconds) / 1000 }

    /// `force` in the raw units of the device as plugged in; now and then one no device should send.
    private mutating func pressure(_ device: SessionDevice, force: Double) -> Double? {
        guard let variant = plugged[device], let range = variant.pressure(declared: device.declaredPressure) else { return nil }
        let roll = unit()
        if roll < mix.oddPressure { return .nan }
        if roll < 2 * mix.oddPressure { return range.min - 5 }
        if roll < 3 * mix.oddPressure { return (range.max * 1.7).rounded() }
        return (range.min + force * (range.max - range.min)).rounded()
    }

    /// Anywhere on a 1920-wide screen, often near the knob, now and then far off it.
    private mutating func coordinate() -> Double {
        if chance(mix.farPosition) { return pick([1e9, -1e7, 3e5, -0.5]) }
        return chance(0.3) ? number(150...450).rounded() : number(0...1920).rounded()
    }

    private mutating func unit() -> Double { Double.random(in: 0..<1, using: &random) }
    private mutating func chance(_ probability: Double) -> Bool { unit() < probability }
    private mutating func number(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
    private mutating func whole(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// One of `choices`, which are never empty here.
    private mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[Int.random(in: choices.indices, using: &random)]
    }
}

// MARK: Running and checking

/// What the sessions reached, to show that they test what they are for.
struct SessionTally: CustomStringConvertible {
    var claims = 0
    var contactsCutByUnplugging = 0
    var contactsHandedOver = 0
    var eventsBehindTheTimers = 0
    var reloadsWithContactsDown = 0
    var learnedChanges = 0

    mutating func add(_ other: SessionTally) {
        claims += other.claims
        contactsCutByUnplugging += other.contactsCutByUnplugging
        contactsHandedOver += other.contactsHandedOver
        eventsBehindTheTimers += other.eventsBehindTheTimers
        reloadsWithContactsDown += other.reloadsWithContactsDown
        learnedChanges += other.learnedChanges
    }

    var description: String {
        "\(claims) claims, \(contactsCutByUnplugging) contacts cut by unplugging, \(contactsHandedOver) handed over, "
            + "\(eventsBehindTheTimers) events behind the timers, \(reloadsWithContactsDown) reloads with contacts down, "
            + "\(learnedChanges) learned changes"
    }
}

/// A session run through a fresh engine, its outputs checked after every step.
struct SessionRun {
    var broken: BrokenPromise?
    var tally = SessionTally()
    /// Each step and what the engine said to it, when asked for.
    var trace: [String] = []

    static func run(_ script: SessionScript, tracing: Bool = false) -> SessionRun {
        var run = SessionRun()
        var engine = GestureEngine(configuration: script.configuration.bindingSet,
                                   devices: SessionDevice.allCases.map { $0.inputDevice(.declared) })
        engine.lessonGrace = script.lessonGrace
        var checker = PromiseChecker(timesOnlyMoveForward: script.timesOnlyMoveForward)
        var plugged = Set(SessionDevice.allCases)
        var timersFiredUpTo = -Double.infinity
        for step in script.steps {
            var outputs: [EngineOutput] = []
            var ending: [ContactKey] = []
            let firedBefore = timersFiredUpTo
            switch step {
            case let .down(contact, sample, window, handedOver):
                guard plugged.contains(contact.device), !checker.isDown(contact.key) else { continue }
                checker.began(contact.key, at: sample.time)
                let event = ContactEvent(time: sample.time, device: contact.key.device, contact: contact.key.contact, phase: .begin,
                                         position: sample.position, pressure: sample.pressure, window: window)
                if let handedOver {
                    engine.handle(event, handedOverAtBegin: handedOver, into: &outputs)
                } else {
                    engine.handle(event, into: &outputs)
                }
            case let .move(contact, sample):
                guard checker.isDown(contact.key) else { continue }
                engine.handle(Self.event(contact, .move, sample), into: &outputs)
            case let .lift(contact, sample):
                guard checker.isDown(contact.key) else { continue }
                engine.handle(Self.event(contact, .end, sample), into: &outputs)
                ending.append(contact.key)
            case let .cancel(contact, time):
                guard checker.isDown(contact.key) else { continue }
                engine.handle(Self.event(contact, .cancel, SessionSample(time: time, position: Point(x: 1, y: 1))), into: &outputs)
                ending.append(contact.key)
            case let .hover(device, sample):
                let contact = SessionContact(device: device, finger: 0)
                guard plugged.contains(device), !checker.isDown(contact.key) else { continue }
                engine.handle(Self.event(contact, .hover, sample), into: &outputs)
            case let .timers(time):
                engine.advance(to: time, into: &outputs)
                timersFiredUpTo = max(timersFiredUpTo, time)
            case let .unplug(device, time, disabled):
                guard plugged.contains(device) else { continue }
                engine.removeDevice(device.rawValue, disabled: disabled, at: time, into: &outputs)
                plugged.remove(device)
                ending = checker.contactsDown.filter { $0.device == device.rawValue }
                run.tally.contactsCutByUnplugging += ending.count
                timersFiredUpTo = max(timersFiredUpTo, time)
            case let .plug(device, variant):
                engine.addDevice(device.inputDevice(variant))
                plugged.insert(device)
                checker.plugged(device.rawValue)
            case let .reload(configuration):
                engine.replaceConfiguration(configuration.bindingSet)
                if !checker.contactsDown.isEmpty { run.tally.reloadsWithContactsDown += 1 }
            case let .anotherButton(contact, time):
                guard checker.isDown(contact.key) else { continue }
                // As the bridge should: the timers due by then first.
                engine.advance(to: time, into: &outputs)
                engine.handOver(contact.key, reason: .anotherButton, at: time, into: &outputs)
            }
            // Only a step the engine was given tells it a time (the rest were cut from a session).
            if let time = step.time {
                checker.told(time)
                if time < firedBefore { run.tally.eventsBehindTheTimers += 1 }
            }
            if tracing {
                run.trace.append("  \(step)")
                run.trace += outputs.map { "      -> \($0)" }
            }
            run.count(outputs)
            if let broken = checker.check(outputs, ending: ending) {
                run.broken = broken
                return run
            }
            if let broken = checker.ended(ending) {
                run.broken = broken
                return run
            }
            if case .unplug(let device, _, _) = step { checker.unplugged(device.rawValue) }
            if let broken = checker.stepDone(engine) {
                run.broken = broken
                return run
            }
        }
        return run
    }

    private static func event(_ contact: SessionContact, _ phase: ContactPhase, _ sample: SessionSample) -> ContactEvent {
        ContactEvent(time: sample.time, device: contact.key.device, contact: contact.key.contact, phase: phase,
                     position: sample.position, pressure: sample.pressure)
    }

    private mutating func count(_ outputs: [EngineOutput]) {
        for output in outputs {
            switch output {
            case .decision(.claim): tally.claims += 1
            case .decision(.release(_, .anotherButton, _, _)), .decision(.release(_, .anotherFinger, _, _)): tally.contactsHandedOver += 1
            case .learned: tally.learnedChanges += 1
            case .decision(.release), .gesture, .action, .feedback, .bug: break
            }
        }
    }
}

/// A promise broken, and where.
struct BrokenPromise: Error, CustomStringConvertible {
    var promise: Promise
    var detail: String

    var description: String { "\(promise.rawValue): \(detail)" }
}

/// What the engine promises whatever comes in.
enum Promise: String {
    case noBug = "the engine reported a bug"
    case decidedOnce = "a contact was decided twice"
    case decidedAtAll = "a contact ended without a decision"
    case knownContact = "an output names a contact that is not down"
    case actsOnlyWhenWon = "an owning gesture acted on a contact it did not win"
    case secondClick = "an owning gesture clicked twice for one contact"
    case releasedUnpressed = "a contact's gesture let go of a button it had not pressed"
    case leftHeldByContact = "a contact ended with a button its gestures pressed still down"
    case leftHeldAllUp = "a button is still down with every contact up"
    case quietAfterUnplug = "an output for a device already unplugged"
    case notFromTheFuture = "an output is stamped later than any time the engine was told"
    case notBeforeBegin = "an output is stamped before its contact began"
    case inOrder = "output times went back while no time told the engine did"
    case quietAfterFinal = "a gesture reported after its final state"
    case sameContactsDown = "the engine's contacts down are not the session's"
    case finiteDeadline = "the next deadline is not a finite time"
    case learnedLevelsOrdered = "learned levels left 0.25-0.9, or are not ordered below the threshold"
    case learnedNotUnderContact = "learned levels moved while a contact of the device was down"
    case bounded = "one step made the engine say over 5000 things"
}

/// Follows a session's contacts and outputs, and says the first promise the engine broke.
struct PromiseChecker {
    private struct ContactRecord {
        var began: Double
        var decisions = 0
        var claimedBy: String?
        var ownedClicks = 0
        var buttons: [Int: Int] = [:]
        var finished: Set<String> = []
    }

    let timesOnlyMoveForward: Bool
    private var records: [ContactKey: ContactRecord] = [:]
    private var buttonsDown: [Int: Int] = [:]
    private var unpluggedDevices: Set<Int> = []
    private var latestTold = -Double.infinity
    private var latestOutput = -Double.infinity
    /// Contacts that began or ended in the step being checked.
    private var changing: Set<ContactKey> = []

    init(timesOnlyMoveForward: Bool) {
        self.timesOnlyMoveForward = timesOnlyMoveForward
    }

    var contactsDown: [ContactKey] { records.keys.sorted() }

    func isDown(_ key: ContactKey) -> Bool { records[key] != nil }

    mutating func told(_ time: Double) { latestTold = max(latestTold, time) }

    mutating func began(_ key: ContactKey, at time: Double) {
        records[key] = ContactRecord(began: time)
        changing.insert(key)
    }

    mutating func unplugged(_ device: Int) { unpluggedDevices.insert(device) }

    mutating func plugged(_ device: Int) { unpluggedDevices.remove(device) }

    /// `ending`: the contacts the step lifts, cancels or unplugs, whose outputs come first.
    mutating func check(_ outputs: [EngineOutput], ending: [ContactKey] = []) -> BrokenPromise? {
        changing.formUnion(ending)
        if outputs.count > 5000 { return BrokenPromise(promise: .bounded, detail: "\(outputs.count) outputs") }
        for output in outputs {
            if let broken = check(output) { return broken }
        }
        return nil
    }

    private mutating func check(_ output: EngineOutput) -> BrokenPromise? {
        func broken(_ promise: Promise) -> BrokenPromise { BrokenPromise(promise: promise, detail: "\(output)") }
        if let key = output.contact {
            if unpluggedDevices.contains(key.device) { return broken(.quietAfterUnplug) }
            guard records[key] != nil else { return broken(.knownContact) }
        }
        switch output {
        case .bug:
            return broken(.noBug)
        case .learned(let change):
            let levels = change.levels
            guard LearningRule.bounds.contains(levels.threshold), levels.release >= 0, levels.release < levels.threshold,
                  levels.ordinary >= 0, levels.ordinary < levels.threshold else { return broken(.learnedLevelsOrdered) }
            guard let device = SessionDevice.idsByName[change.device] else { return broken(.knownContact) }
            if unpluggedDevices.contains(device) { return broken(.quietAfterUnplug) }
            if records.keys.contains(where: { $0.device == device && !changing.contains($0) }) {
                return broken(.learnedNotUnderContact)
            }
        case .decision(let decision):
            guard var record = records[decision.key] else { return broken(.knownContact) }
            record.decisions += 1
            if record.decisions > 1 { return broken(.decidedOnce) }
            if decision.held < 0 { return broken(.notBeforeBegin) }
            switch decision {
            case .claim(_, let gesture, _, _): record.claimedBy = gesture
            case .release: break
            }
            records[decision.key] = record
            return checkTime(decision.time, of: record, output)
        case .action(let event):
            guard var record = records[event.contact] else { return broken(.knownContact) }
            let owning = SessionConfiguration.owningGestures.contains(event.gesture)
            if owning, record.claimedBy != event.gesture { return broken(.actsOnlyWhenWon) }
            switch event.action {
            case .click:
                if owning { record.ownedClicks += 1 }
                if record.ownedClicks > 1 { return broken(.secondClick) }
            case .press(let button):
                record.buttons[button, default: 0] += 1
                buttonsDown[button, default: 0] += 1
            case .release(let button):
                record.buttons[button, default: 0] -= 1
                buttonsDown[button, default: 0] -= 1
                if record.buttons[button, default: 0] < 0 { return broken(.releasedUnpressed) }
            case .scroll, .key, .command, .volume:
                break
            }
            records[event.contact] = record
            return checkTime(event.time, of: record, output)
        case .gesture(let event):
            let key = ContactKey(device: event.device, contact: event.contact)
            guard var record = records[key] else { return broken(.knownContact) }
            if record.finished.contains(event.gesture) { return broken(.quietAfterFinal) }
            if event.report.state.isFinal { record.finished.insert(event.gesture) }
            records[key] = record
            return checkTime(event.report.time, of: record, output)
        case .feedback:
            break
        }
        return nil
    }

    private mutating func checkTime(_ time: Double, of record: ContactRecord, _ output: EngineOutput) -> BrokenPromise? {
        let told = latestTold
        func broken(_ promise: Promise) -> BrokenPromise {
            BrokenPromise(promise: promise, detail: "\(output), the contact began at \(record.began), latest time told \(told)")
        }
        if time > latestTold { return broken(.notFromTheFuture) }
        if time < record.began { return broken(.notBeforeBegin) }
        if timesOnlyMoveForward, time < latestOutput { return broken(.inOrder) }
        latestOutput = max(latestOutput, time)
        return nil
    }

    /// `keys` lifted, were cancelled, or went with their device.
    mutating func ended(_ keys: [ContactKey]) -> BrokenPromise? {
        for key in keys {
            guard let record = records.removeValue(forKey: key) else { continue }
            if record.decisions == 0 { return BrokenPromise(promise: .decidedAtAll, detail: "\(key)") }
            if let held = record.buttons.sorted(by: { $0.key < $1.key }).first(where: { $0.value != 0 }) {
                return BrokenPromise(promise: .leftHeldByContact,
                                     detail: "\(key): button \(held.key) pressed \(held.value) more times than let go")
            }
        }
        return nil
    }

    /// After each step: the engine agrees on what is down, and its next deadline is a time.
    mutating func stepDone(_ engine: GestureEngine) -> BrokenPromise? {
        changing = []
        if engine.activeContacts != contactsDown {
            return BrokenPromise(promise: .sameContactsDown, detail: "engine \(engine.activeContacts), session \(contactsDown)")
        }
        if records.isEmpty, let held = buttonsDown.sorted(by: { $0.key < $1.key }).first(where: { $0.value != 0 }) {
            return BrokenPromise(promise: .leftHeldAllUp, detail: "button \(held.key) pressed \(held.value) more times than let go")
        }
        if let deadline = engine.nextDeadline, !deadline.isFinite {
            return BrokenPromise(promise: .finiteDeadline, detail: "\(deadline)")
        }
        return nil
    }
}

/// Cuts a session down to the fewest steps that still break the same promise: whole runs of
/// steps first, then single ones. The runner skips a step that no longer makes sense (a lift
/// of a contact not down), so every cut session is one the engine may be given.
enum SessionShrinker {
    static func shrink(_ script: SessionScript, breaking promise: Promise) -> SessionScript {
        var current = script
        var chunk = max(1, current.steps.count / 2)
        while true {
            var index = 0
            var cut = false
            while index < current.steps.count {
                var candidate = current
                candidate.steps.removeSubrange(index..<min(current.steps.count, index + chunk))
                if SessionRun.run(candidate).broken?.promise == promise {
                    current = candidate
                    cut = true
                } else {
                    index += chunk
                }
            }
            if !cut {
                if chunk == 1 { return current }
                chunk /= 2
            }
        }
    }
}
