import Glibc
import ArgumentParser
import GestureKit
import X11Bridge

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that this session can run GestureBridge, and say what to fix.",
        discussion: """
            Checks the session (X11, not Wayland), the XInput and XTest extensions, whether a \
            gesture-bridge runs on the display now, whether a compositor runs (the feedback overlay then blends; without one it is shaped), which \
            devices report pressure (and the deep-press levels learned for each, from how many \
            contacts), whether every key the config sends can be typed, whether \
            the volume can be changed (for `volume` actions), and the config itself. Exits 1 when \
            something would stop the bridge from working: no X11 session, no XTest, a broken \
            config or key name, volume actions with no way to change the volume, or no device \
            that any binding listens to.

            With --json, each finding is a line of JSON: what was checked (`check`: config, \
            session, xinput, xtest, screens, bridge-running, compositor, pen-awaited, no-devices, pressure, \
            dead-pressure, no-pressure, missing-device, switched-off, unlistened, nothing-listened, mapping, \
            fixed-threshold, volume, key, command, learned-state), its `status` (ok, note, problem), the `device`, \
            `binding` or `key` it is about where it is about one, and its `message`.

            Example:
              gesture-bridge doctor
              gesture-bridge doctor --config my-config.yaml
              gesture-bridge doctor --json | jq -r 'select(.status == "problem") | .message'
            """
    )

    @OptionGroup var config: ConfigOption

    @Flag(help: "Print each finding as a line of JSON: {\"check\",\"status\",\"message\"}, with \"device\", \"binding\" or \"key\" where it is about one.")
    var json = false

    /// One finding: fine, worth knowing, or in the way; what it looked at, and about what.
    typealias Finding = DoctorFindingLine

    func run() throws {
        var findings: [Finding] = []
        defer {
            if json {
                for finding in findings { print(JSONLineEncoder.line(finding)) }
            } else {
                for finding in findings { print(Self.line(finding)) }
                let problems = findings.filter { $0.status == .problem }.count
                print(problems == 0 ? "GestureBridge can run here." : "\(problems) problem\(problems == 1 ? "" : "s") to fix first.")
            }
        }

        let source = config.source()
        let start = StartingConfig(source.anchored(), kept: KeptConfig.user(), keyNames: XKeysymNames())
        let bindings = start.bindings
        switch start {
        case .loaded(let loaded):
            findings.append(.ok(.config, "config \(source): \(loaded.bindings.count) bindings"))
        case .kept(_, _, let error), .builtInMeanwhile(let error):
            findings.append(.problem(.config, "config \(source) is broken: a bridge started now runs \(start.standIn(for: source) ?? "") until it is mended:\n"
                                     + error.description))
        case .failed(let error):
            findings.append(.problem(.config, "config \(source) is broken (the bridge will not start with it):\n" + error.description))
        }

        let name: String
        do {
            name = try DisplayCheck.displayName(environment: ProcessEnvironment.current)
        } catch {
            findings.append(.problem(.session, error.description))
            // Over ssh (no DISPLAY): where this user's bridges run, and how to look at that
            // session. Found in review of a caregiver's setup: doctor could not say whether one ran.
            // From a Wayland session's terminal, the command says the session it examines is
            // X11 (found in review of a Wayland user's week: followed, it was refused again).
            let x11 = if case .waylandSession = error { "XDG_SESSION_TYPE=x11 " } else { "" }
            for (process, display, authority) in BridgeProcesses.displays() {
                // With the cookie it reaches the server by (GDM keeps it out of the home folder).
                let cookie = authority.map { " XAUTHORITY=\(ShellLine.quoted($0))" } ?? ""
                findings.append(.note(.session, display.map {
                    "gesture-bridge runs as process \(process) on DISPLAY=\($0): `\(x11)DISPLAY=\(ShellLine.quoted($0))\(cookie) gesture-bridge doctor` examines that session"
                } ?? "gesture-bridge runs as process \(process), on a display its environment does not name"))
            }
            throw CommandFailure.reported()
        }

        let connection: XConnection
        do {
            connection = try XConnection.open(name: name, requirements: .init(xtest: false))
        } catch {
            // Which of the session's parts is missing: XInput 2.2, or the X server itself.
            let missing: Finding.Check = switch error {
            case .xinputMissing, .xinputTooOld: .xinput
            default: .session
            }
            findings.append(.problem(missing, error.description))
            throw CommandFailure.reported()
        }
        defer { connection.close() }
        // Said once the display opened (found in review: a display refused, by its cookie, was
        // both an ok session and a problem).
        findings.append(.ok(.session, "X11 session on DISPLAY=\(name)"))
        findings.append(.ok(.xinput, "XInput \(connection.xinputVersion.major).\(connection.xinputVersion.minor) (2.2 needed for touch)"))
        findings.append(connection.hasXTest
            ? .ok(.xtest, "XTest: the bridge can send clicks, keys and scrolling")
            : .problem(.xtest, "the X server has no XTest extension: the bridge cannot send clicks, keys or scrolling, and `gesture-bridge run` does not start without --dry-run, which only prints the gestures (enable the XTEST extension in the server)"))

        if let advice = connection.otherScreensAdvice { findings.append(.note(.screens, advice)) }
        // Everything can be fine and nothing listen: the service failed, or never started.
        if let running = InstanceClaim.runningBridge(on: connection) {
            // Found in review of an upgrade: the package replaced the program, and the bridge
            // running went on with the old one while this said all was well.
            if let process = running.process, BridgeProcesses.programReplaced(process: process) {
                findings.append(.note(.bridgeRunning, """
                    a gesture-bridge runs on DISPLAY=\(name) (process \(process)), but its program was replaced or \
                    removed since it started (an upgrade): it goes on with the old one until restarted, \
                    `systemctl --user restart gesture-bridge` (or `gesture-bridge run --replace`, or a new login)
                    """))
            } else if let watched = running.watchedConfig, let checked = Self.watchedPath(of: source),
                      !SymbolicLinks.sameFile(watched, checked) {
                // Found in review of a config kept in dotfiles: an XDG_CONFIG_HOME set in the
                // shell alone, or a bridge run with another --config; this checked one file,
                // the bridge read another, and edits did nothing with no word of why.
                findings.append(.note(.bridgeRunning, """
                    a gesture-bridge runs on DISPLAY=\(name)\(running.process.map { " (process \($0))" } ?? ""), but it reads \(watched), \
                    not \(checked) checked here: edits to this one do nothing there (its environment's XDG_CONFIG_HOME, \
                    or its --config, differs; `gesture-bridge run --replace --config \(ShellLine.quoted(checked))` runs this one)
                    """))
            } else {
                findings.append(.ok(.bridgeRunning, "a gesture-bridge runs on DISPLAY=\(name)\(running.process.map { " (process \($0))" } ?? "")"))
            }
        } else {
            findings.append(.note(.bridgeRunning, """
                no gesture-bridge runs on DISPLAY=\(name): no gesture acts until one does. Start it with \
                `gesture-bridge run`, or the service with `systemctl --user start gesture-bridge` \
                (`systemctl --user status gesture-bridge` says why it stopped)
                """))
        }

        findings.append(connection.hasCompositor
            ? .ok(.compositor, "a compositor runs: the feedback overlay blends with the desktop")
            : .note(.compositor, "no compositor: the feedback overlay is drawn as a shaped window (no transparency), which works everywhere"))

        let catalog = DeviceCatalog.query(connection)
        // A state file not read: its device learns afresh, or without keeping.
        let learned = Learned.userStateAndProblems()
        findings += learned.problems.map { .note(.learnedState, $0) }
        for tablet in catalog.tabletsAwaitingPen {
            findings.append(.note(.penAwaited, DeviceCatalog.awaitingPenAdvice(tablet), device: tablet.name))
        }
        findings += deviceFindings(catalog.contactSources, awaitingPen: !catalog.tabletsAwaitingPen.isEmpty, bindings: bindings,
                                   learning: learned.learning, disabled: catalog.devices.filter { !$0.isEnabled })
        findings += Self.mappingFindings(catalog.contactSources, monitors: connection.monitors, screen: connection.screenSize)
        if let bindings {
            findings += keyFindings(bindings, connection: connection)
            findings += volumeFindings(bindings)
            findings += Self.commandFindings(bindings, path: ProcessEnvironment.current["PATH"])
            let calibrated = Set(learned.learning.devices.filter(\.value.calibrated).keys.map(LearningKey.name(of:)))
            findings += Self.fixedThresholdFindings(bindings, calibrated: calibrated)
            findings += Self.knobAtTouchDownFindings(bindings)
            findings += Self.olderDefaultFindings(bindings)
        }
        // The findings, printed on the way out, say what is wrong.
        if findings.contains(where: { $0.status == .problem }) { throw CommandFailure.reported() }
    }

    /// The file a bridge running `source` watches: the file, or for the built-in default the
    /// user's config path, where a file created is loaded (`run`'s watch); nil for none.
    static func watchedPath(of source: ConfigSource) -> String? {
        switch source.anchored() {
        case .file(let path): path
        case .builtInDefault: ConfigSource.userConfigPath()
        }
    }

    /// A finding as the table prints it.
    static func line(_ finding: Finding) -> String {
        switch finding.status {
        case .ok: "  ok       \(finding.message)"
        case .note: "  note     \(finding.message)"
        case .problem: "  PROBLEM  \(finding.message)"
        }
    }

    /// Touchscreens that reach every monitor of several: the panel's positions are spread over
    /// the whole desktop, so a touch lands away from the finger, and a knob measured from the
    /// screen's corners is where the desktop's corner is. Not where one monitor shows all the
    /// others do (mirrored for a projector): the touchscreen covers that one, the panel, and
    /// mapped to it, it spans the whole screen as it did. Found in review of a classroom: the
    /// advice, followed, squeezed every touch into the projector's smaller picture. And
    /// touchscreens mapped to an area no monitor shows now: mapped beside a projector since
    /// unplugged, `xinput map-to-output` mapped them once, and every touch lands short.
    static func mappingFindings(_ devices: [X11Device], monitors: MonitorLayout, screen: ScreenSize) -> [Finding] {
        let frames = Set(monitors.monitors.map(\.frame))
        let names = monitors.monitors.map(\.name).joined(separator: ", ")
        let mapCommand = { (device: X11Device) in "`xinput map-to-output \(ShellLine.quoted(device.name)) MONITOR`" }
        let showsAll = frames.contains { outer in frames.allSatisfy { outer.intersection($0) == $0 } }
        return devices.filter { $0.kind == .touch && $0.touch?.mode == .direct }.compactMap { device -> Finding? in
            guard let area = device.mappedArea else {
                guard frames.count > 1, !showsAll else { return nil }
                return .note(.mapping, "touchscreen \"\(device.name)\" spans all \(frames.count) monitors (\(names)): a touch lands away from the finger, and the volume knob is in the desktop's corner rather than the touchscreen's. Map it to its own monitor: \(mapCommand(device)) (desktops such as GNOME and KDE do it themselves)", device: device.name)
            }
            let mapped = area.frame(on: screen)
            // Within a twentieth of the monitor: a touchscreen calibrated through its matrix
            // (a small offset, a scale of 1.02) is mapped to its monitor still. Found in review.
            let matches = { (frame: ScreenRect) in
                let x = max(2, frame.width / 20), y = max(2, frame.height / 20)
                return abs(frame.x - mapped.x) <= x && abs(frame.y - mapped.y) <= y && abs(frame.width - mapped.width) <= x
                    && abs(frame.height - mapped.height) <= y
            }
            guard !frames.isEmpty, !frames.contains(where: matches) else { return nil }
            return .note(.mapping, "touchscreen \"\(device.name)\" is mapped to \(mapped.width)x\(mapped.height)+\(mapped.x)+\(mapped.y), which no monitor shows now (\(names)): the monitors changed since it was mapped, and a touch lands away from the finger. Map it again: \(mapCommand(device))", device: device.name)
        }
    }

    /// Which devices report pressure, which bindings serve them, and whether anything at all
    /// would reach a gesture.
    /// `awaitingPen`: a pen tablet's pen has yet to come near it (noted already), so what is
    /// missing now is there once it has.
    private func deviceFindings(_ devices: [X11Device], awaitingPen: Bool, bindings: BindingSet?, learning: PressLearning,
                                disabled: [X11Device] = []) -> [Finding] {
        let seeDevices = "`gesture-bridge devices` shows what each device reports"
        // The pen's device comes with its pen: what it would say is not missing. Found in
        // review: every other device went unsaid meanwhile (a touchscreen no binding listens to).
        let penToCome = awaitingPen && devices.allSatisfy { $0.pressureAxis?.pressureRange == nil }
        if awaitingPen && devices.isEmpty { return [] }
        guard !devices.isEmpty else {
            // All switched off, as a display whose session another user has switched to (a VT
            // switched away from) disables every one: connected all the same, as `run` counts
            // them. Found in review of fast user switching: a PROBLEM and status 1.
            let off = disabled.filter { $0.inputDevice != nil }.map { "\"\($0.name)\"" }
            guard off.isEmpty else {
                return [.note(.switchedOff, "every pen, touchscreen and mouse here is switched off (\(off.joined(separator: ", ")): disabled in X, as a display whose session another user has switched to disables its devices. The bridge listens to them once they are on (`xinput enable NAME`, or switching back to this session)")]
            }
            return [.problem(.noDevices, "no pen, touchscreen or mouse is connected: the bridge has nothing to listen to. Connect one (devices plugged in later join a running bridge); `xinput list` shows what the X server sees")]
        }
        var findings: [Finding] = []
        let withPressure = devices.filter { $0.pressureAxis?.pressureRange != nil }
        for device in withPressure {
            let range = device.pressureAxis?.pressureRange.map { "\($0.min.formatted)..\($0.max.formatted)" } ?? "?"
            let driver = device.driver == .unknown ? "" : " (\(device.driver.rawValue) driver)"
            // X keeps only an axis's last value, which a pen's lift sets back: "pressing now" is
            // all it tells, and of a touchscreen nothing (`X11Device.pressureHasMoved`).
            let moved = device.pressureHasMoved == true ? ", pressing now" : ""
            let learned = "; learned: " + Learned.summary(learning.learner(name: device.name, product: device.product,
                                            nameAloneInUse: LearningKey.nameAloneInUse(by: device.name, among: devices.map { ($0.name, $0.product) })))
            let product = device.product.map { " [\($0)]" } ?? ""
            findings.append(.ok(.pressure, "\(device.kind?.rawValue ?? "device") \"\(device.name)\"\(product)\(driver) reports pressure \(range)\(moved)\(learned)", device: device.name))
        }
        // Declared but dead: a puck, lens or pad with an "Abs Pressure" axis, or a libinput tool
        // labelled pressure away from valuator 2.
        for device in devices where device.pressureAxis == nil && device.valuators.contains(where: \.isPressure) {
            findings.append(.note(.deadPressure, "\(device.kind?.rawValue ?? "device") \"\(device.name)\" declares a pressure axis its driver (\(device.driver.rawValue)) never moves there; it gets the gestures that need no pressure", device: device.name))
        }
        if withPressure.isEmpty, !penToCome {
            let pressureBindings = bindings?.bindings.filter(\.recognizer.kind.needsPressure).map(\.name) ?? []
            let lost = pressureBindings.isEmpty ? "" : ", so these bindings never fire: \(pressureBindings.joined(separator: ", "))"
            findings.append(.note(.noPressure, "no device reports pressure\(lost). Deep press and the other pressure gestures need a pen tablet or a pressure-sensing touchscreen whose X driver reports an \"Abs Pressure\" or \"Abs MT Pressure\" axis; \(seeDevices)"))
        }
        guard let bindings else { return findings }
        // A name the config gives that no device has: a typo, or a device not plugged in.
        // A device switched off is connected, as `run` counts it (a VT switched away from
        // disables them all): said as switched off, not as missing.
        let switchedOff = disabled.compactMap(\.inputDevice)
        let absent = Set(bindings.missingDevices(among: devices.compactMap(\.inputDevice) + switchedOff).map(\.name))
        for missing in bindings.missingDevices(among: devices.compactMap(\.inputDevice)) where !absent.contains(missing.name) {
            findings.append(.note(.switchedOff, "binding \(missing.binding) names the device \"\(missing.name)\", which is switched off (disabled in X, as a display whose session another user has switched to disables its devices): it listens to it once it is on (`xinput enable \(ShellLine.quoted(missing.name))`)",
                                  device: missing.name, binding: missing.binding))
        }
        for missing in bindings.missingDevices(among: devices.compactMap(\.inputDevice)) where absent.contains(missing.name) {
            let hint = missing.suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
            findings.append(.note(.missingDevice, "binding \(missing.binding) names the device \"\(missing.name)\", which is not connected\(hint): it listens to none by that name until one comes; \(seeDevices)",
                                  device: missing.name, binding: missing.binding))
        }
        let unserved = devices.filter { !($0.inputDevice.map(bindings.listens(to:)) ?? false) }
        for device in unserved {
            findings.append(.note(.unlistened, "no binding listens to \(device.kind?.rawValue ?? "device") \"\(device.name)\"", device: device.name))
        }
        if unserved.count == devices.count, !awaitingPen {
            let kinds = Set(devices.compactMap { $0.kind?.rawValue }).sorted().joined(separator: ", ")
            findings.append(.problem(.nothingListened, "no binding of this config listens to any device here, so the bridge would do nothing. Connect a pen or a touchscreen, or add a binding for these devices (`devices: [\(kinds)]`; knob and long press need no pressure)"))
        }
        return findings
    }

    /// Deep presses with a number for `threshold`: learning leaves them alone, and `learned`
    /// says "nothing learned yet" for ever (a config copied from an older default, 0.7, keeps
    /// a person from the learning a newer default has).
    /// `calibrated`: the names of devices `calibrate --write` measured; a binding for them alone
    /// has the levels measured, whatever they read like.
    static func fixedThresholdFindings(_ bindings: BindingSet, calibrated: Set<String> = []) -> [Finding] {
        bindings.bindings.compactMap { binding in
            guard case .deepPress(let configuration) = binding.recognizer, !configuration.learned else { return nil }
            // A threshold lowered by hand for a light hand, its ordinary level following at half:
            // a still press resting between the two (a scroll arrow held) waits for its lift.
            // Found in review of a config written for someone else. A light hand's calibration
            // measures its ordinary level at half too (found in review of calibrating).
            let ordinary = DeepPressRecognizer.Configuration.Keys.ordinary
            let measured = !binding.deviceNames.isEmpty && binding.deviceNames.allSatisfy(calibrated.contains)
            let follows = !measured && configuration.ordinary == ordinary.standard(following: configuration.threshold)
            let lowered = follows && configuration.threshold < PressLevels.start.threshold
                ? " Its ordinary level follows at \(configuration.ordinary.formatted), half of it: a press resting between the two (a scroll arrow held) reaches the application only as it lifts; `ordinary:` set to what ordinary presses reach, or `calibrate --write`, measures it"
                : ""
            guard bindings.learn || !lowered.isEmpty else { return nil }
            let learning = bindings.learn
                ? ": the bridge does not learn it for your hand; `threshold: learned` does (the built-in default's; `calibrate --write` writes a number on purpose)."
                : "."
            return .note(.fixedThreshold, "binding \"\(binding.name)\" has a fixed threshold (\(configuration.threshold.formatted))\(learning)\(lowered)", binding: binding.name)
        }
    }

    /// Knobs that begin as a contact goes down on their ring (`activation` 0) and own it:
    /// every click and tap there is theirs. Found in review of a knob all day: a scroll knob
    /// written with its center and actions alone ate every click on its ring, mouse clicks too.
    /// And knobs asked for a `ring` with no `volume` action: the ring a knob draws is the volume
    /// level it reads back, so nothing is drawn (found in review of a knob all day).
    static func knobAtTouchDownFindings(_ bindings: BindingSet) -> [Finding] {
        bindings.bindings.flatMap { binding -> [Finding] in
            guard case .knob(let knob) = binding.recognizer else { return [] }
            var findings: [Finding] = []
            if knob.activation == 0, binding.ownsContact {
                findings.append(.note(.config, "binding \"\(binding.name)\" is a knob that begins as a contact goes down on its ring (`activation` 0) and owns it: every click and tap there is the knob's, none the application's; `activation: 30`, as the built-in knob's, leaves them to it", binding: binding.name))
            }
            let changesVolume = binding.everyAction.contains { if case .volume = $0 { return true } else { return false } }
            if binding.feedback.contains(.ring), !changesVolume {
                findings.append(.note(.config, "binding \"\(binding.name)\" asks for a ring, which a knob draws only to show the volume level its `volume` actions read back; it has none (keys such as XF86AudioRaiseVolume are not read back), so nothing is drawn", binding: binding.name))
            }
            return findings
        }
    }

    /// Bindings of the built-in default's names that act where it now leaves programs alone: a
    /// config copied from an earlier default (`BindingSet.programsLeftAlone`).
    static func olderDefaultFindings(_ bindings: BindingSet) -> [Finding] {
        bindings.programsLeftAlone(by: ConfigLoader.builtInDefault).map { binding, programs in
            .note(.config, "binding \"\(binding)\" acts in \(programs.joined(separator: ", ")), which the built-in default's \"\(binding)\" now leaves alone (on-screen keyboards, drawing programs): a config copied from an earlier default? Add them to its `except` list to leave them alone too (`gesture-bridge print-config --default` shows the default as it is now)", binding: binding)
        }
    }

    /// The programs bindings' commands run that cannot be found or run here, looked up as the
    /// bridge would in `path` (a service's PATH may differ from this shell's: a note, not a
    /// problem). Found in review: a command misspelt or not installed said nothing until a
    /// gesture failed.
    static func commandFindings(_ bindings: BindingSet, path: String?) -> [Finding] {
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        var seen: Set<String> = []
        return bindings.bindings.flatMap { binding in
            binding.everyAction.compactMap { action -> Finding? in
                guard case .command(let argv) = action, let program = argv.first, seen.insert(program).inserted else { return nil }
                if let first = program.first, first == "~" || first == "$" {
                    return .note(.command, "binding \"\(binding.name)\" runs `\(program)`, which is looked for as written: the command runs without a shell (`gesture-bridge check` shows the shell line to write)", binding: binding.name)
                }
                if program.contains("/") {
                    guard access(program, X_OK) != 0 else { return nil }
                    return .note(.command, "binding \"\(binding.name)\" runs \(program), which \(access(program, F_OK) == 0 ? "is not executable (chmod +x)" : "is not there")", binding: binding.name)
                }
                guard !directories.contains(where: { access("\($0)/\(program)", X_OK) == 0 }) else { return nil }
                return .note(.command, "binding \"\(binding.name)\" runs \(program), which is not found in PATH (\(directories.joined(separator: ":"))): install it, or name it with its full path", binding: binding.name)
            }
        }
    }

    /// A config with `volume` actions needs pactl or wpctl, and a sound server that answers.
    private func volumeFindings(_ bindings: BindingSet) -> [Finding] {
        let binding = bindings.bindings.first { binding in
            let actions = binding.onStart + binding.onEnd + binding.onCrossUp + binding.onCrossDown
                + (binding.steps?.increase ?? []) + (binding.steps?.decrease ?? [])
            return actions.contains { $0.name == "volume" }
        }
        guard let binding else { return [] }
        let control = VolumeControl()
        let clock = MonotonicClock()
        let probe = ActionEvent(time: 0, gesture: binding.name, contact: ContactKey(device: 0, contact: 0),
                                action: .volume(.adjust(percent: 0)), position: Point(x: 0, y: 0))
        control.readLevel(for: probe, now: clock.now)
        let reports = control.waitUntilIdle(timeout: 5, clock: clock)
        for case .failed(_, let failure) in reports {
            return [.problem(.volume, "binding \(binding.name) changes the volume, but: \(failure)", binding: binding.name)]
        }
        guard let level = control.level, let tool = control.tool else {
            return [.problem(.volume, "binding \(binding.name) changes the volume, but reading it took longer than 5 s", binding: binding.name)]
        }
        return [.ok(.volume, "volume: \(tool.rawValue) reads the default output at \(Int((level * 100).rounded()))%", binding: binding.name)]
    }

    /// Every keysym a key action names must exist; one missing from the keymap is borrowed.
    private func keyFindings(_ bindings: BindingSet, connection: XConnection) -> [Finding] {
        var names: [(binding: String, key: String)] = []
        for binding in bindings.bindings {
            let actions = binding.onStart + binding.onEnd + binding.onCrossUp + binding.onCrossDown
                + (binding.steps?.increase ?? []) + (binding.steps?.decrease ?? [])
            for case .key(let combo) in actions {
                for key in combo.keysymNames where !names.contains(where: { $0.key == key }) {
                    names.append((binding.name, key))
                }
            }
        }
        return names.map { binding, key in
            switch connection.availability(ofKey: key) {
            case .unknownName:
                return .problem(.key, "binding \(binding): \"\(key)\" is not an X keysym name (see /usr/include/X11/keysymdef.h, or `xev` to find a key's name)", binding: binding, key: key)
            case .borrowed:
                return .ok(.key, "key \(key) is not on the keyboard map; the bridge borrows a spare keycode for it", binding: binding, key: key)
            case .onKeymap:
                return .ok(.key, "key \(key) can be typed", binding: binding, key: key)
            }
        }
    }
}

extension DoctorFindingLine {
    static func ok(_ check: Check, _ message: String, device: String? = nil, binding: String? = nil, key: String? = nil) -> Self {
        Self(check: check, status: .ok, device: device, binding: binding, key: key, message: message)
    }

    static func note(_ check: Check, _ message: String, device: String? = nil, binding: String? = nil, key: String? = nil) -> Self {
        Self(check: check, status: .note, device: device, binding: binding, key: key, message: message)
    }

    static func problem(_ check: Check, _ message: String, device: String? = nil, binding: String? = nil, key: String? = nil) -> Self {
        Self(check: check, status: .problem, device: device, binding: binding, key: key, message: message)
    }
}
