import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// `doctor` on the headless Xorg with the virtual pen and touchscreen.
@Suite("Doctor", .serialized)
struct DoctorTests {
    /// `doctor --json` with `arguments`: its exit status and its findings.
    static func doctor(_ arguments: [String] = [], environment: [String: String]) throws -> (status: Int32, findings: [DoctorFindingLine]) {
        let run = try GestureBridgeExecutable.run(["doctor", "--json"] + arguments, environment: environment)
        #expect(!run.crashed && run.stderr.isEmpty, "\(run.stderr)")
        return (run.status, try decodedLines(DoctorFindingLine.self, run.stdout))
    }

    /// What `doctor --json` with `arguments` finds of a bridge running on the display.
    static func bridgeRunning(_ arguments: [String] = [], environment: [String: String]) throws -> [DoctorFindingLine] {
        try doctor(arguments, environment: environment).findings.filter { $0.check == .bridgeRunning }
    }

    /// Found in review of a two-screen server: the bridge covered screen 0 alone and nothing
    /// said so.
    @Test("on a server with two screens: a note that the bridge covers the one of DISPLAY; one screen, no such note", .requiresXvfb)
    func twoScreens() throws {
        let server = try XvfbDisplay(extraArguments: ["-screen", "1", "800x600x24"])
        defer { server.stop() }
        for (display, screen) in [(server.displayName, 0), (server.displayName + ".1", 1)] {
            let (_, findings) = try Self.doctor(environment: ["DISPLAY": display, "HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"])
            let notes = findings.filter { $0.check == .screens }
            #expect(notes.map(\.status) == [.note], "\(findings)")
            #expect(notes.first?.message.contains("2 screens") == true && notes.first?.message.contains("screen \(screen) ") == true,
                    "\(notes)")
        }
        let single = try XvfbDisplay()
        defer { single.stop() }
        let (_, findings) = try Self.doctor(environment: ["DISPLAY": single.displayName, "HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"])
        #expect(!findings.contains { $0.check == .screens }, "\(findings)")
    }

    @Test("on a session with a pen and a touchscreen: pressure devices listed, keys typeable, whether a bridge runs there said, exit 0", .requiresXorg)
    func healthySession() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let (status, findings) = try Self.doctor(environment: server.clientEnvironment)
        #expect(status == 0, "\(findings)")
        #expect(!findings.contains { $0.status == .problem }, "\(findings)")
        #expect(findings.contains { $0.check == .session && $0.status == .ok && $0.message.contains("DISPLAY=\(server.displayName)") })
        let pressure = findings.filter { $0.check == .pressure && $0.status == .ok }.compactMap(\.device)
        #expect(pressure.sorted() == ["test-pen", "test-touch"], "\(findings)")
        #expect(findings.contains { $0.check == .pressure && $0.device == "test-pen" && $0.message.contains("0..1000; learned") })
        #expect(!findings.contains { $0.message.contains("seen pressing") },
                "X keeps no history of a device's pressure to tell it by: \(findings)")
        #expect(findings.contains { $0.check == .pressure && $0.device == "test-touch" && $0.message.contains("0..2047") })
        #expect(findings.contains { $0.check == .key && $0.key == "XF86AudioRaiseVolume" && $0.status == .ok })
        // Found in review of the service's life: with the service failed, doctor said all was
        // well, and nothing said no bridge listened.
        #expect(findings.filter { $0.check == .bridgeRunning }.map(\.status) == [.note], "\(findings)")

        // The table says the same findings, a line each, and its verdict.
        let table = try GestureBridgeExecutable.run(["doctor"], environment: server.clientEnvironment)
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == findings.count + 1 && lines.last == "GestureBridge can run here.", "\(table.stdout)")
        let column: [DoctorFindingLine.Status: String] = [.ok: "  ok       ", .note: "  note     ", .problem: "  PROBLEM  "]
        #expect(zip(lines, findings).allSatisfy { line, finding in line == (column[finding.status] ?? "?") + finding.message },
                "\(table.stdout)")

        let bridge = try BackgroundBridge(["run", "--dry-run", "--no-watch"], environment: server.clientEnvironment)
        defer { bridge.stop() }
        #expect(bridge.waitUntilListening())
        let running = try Self.bridgeRunning(environment: server.clientEnvironment)
        #expect(running.map(\.status) == [.ok], "\(running)")
        #expect(running.first?.message.contains("(process \(bridge.process.processIdentifier))") == true, "\(running)")
    }

    /// Found in review of an upgrade: a package replaces the program under a running bridge,
    /// which goes on with the old one, and doctor said all was well.
    @Test("doctor: a bridge whose program was replaced since it started (an upgrade) is a note that says to restart it", .requiresXorg)
    func replacedProgram() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let folder = URL(fileURLWithPath: try temporaryFolder("gesture-bridge-upgrade"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = try #require(GestureBridgeExecutable.url)
        let installed = folder.appendingPathComponent("gesture-bridge")
        try FileManager.default.copyItem(at: built, to: installed)
        let bridge = try BackgroundBridge(["run", "--dry-run", "--no-watch"], environment: server.clientEnvironment, executable: installed)
        defer { bridge.stop() }
        #expect(bridge.waitUntilListening())
        // As dpkg does: the new file beside it, renamed over it.
        let upgrade = folder.appendingPathComponent("gesture-bridge.dpkg-new")
        try FileManager.default.copyItem(at: built, to: upgrade)
        #expect(rename(upgrade.path, installed.path) == 0)
        let running = try Self.bridgeRunning(environment: server.clientEnvironment)
        #expect(running.map(\.status) == [.note], "\(running)")
        #expect(running.first?.message.contains("systemctl --user restart gesture-bridge") == true, "\(running)")
    }

    /// Found in review of a config kept in dotfiles: an XDG_CONFIG_HOME set in the shell alone,
    /// or a bridge run with another --config, and doctor said all was well while the person's
    /// edits did nothing.
    @Test("doctor: a running bridge that reads another config file than the one checked is a note naming the file it reads; the same file through a link is fine", .requiresXorg)
    func bridgeReadsAnotherConfig() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let folder = try temporaryFolder("gesture-bridge-two-configs")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = folder + "/running.yaml", other = folder + "/other.yaml", link = folder + "/link.yaml"
        for path in [running, other] {
            try DefaultConfig.text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(chmod(path, 0o600) == 0)
        }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: running)
        let bridge = try BackgroundBridge(["run", "--dry-run", "--config", running], environment: server.clientEnvironment)
        defer { bridge.stop() }
        #expect(bridge.waitUntilListening())
        let elsewhere = try Self.bridgeRunning(["--config", other], environment: server.clientEnvironment)
        #expect(elsewhere.map(\.status) == [.note] && elsewhere.first?.message.contains("it reads \(running)") == true, "\(elsewhere)")
        let same = try Self.bridgeRunning(["--config", link], environment: server.clientEnvironment)
        #expect(same.map(\.status) == [.ok], "\(same)")
    }

    /// A learned-state file for `device` in `directory`, named as the bridge names it.
    static func writeState(_ body: String, device: String, in directory: String) throws {
        var hash: UInt32 = 2_166_136_261
        for byte in device.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let readable = String(device.unicodeScalars.prefix(60).map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "-"
        })
        let hex = String(hash, radix: 16)
        let name = readable + "-" + String(repeating: "0", count: 8 - hex.count) + hex + ".learned"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ("version 1\ndevice \(device)\n" + body).write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    @Test("devices --json and doctor show what was learned per pressure device, from how many contacts, and calibrated", .requiresXorg)
    func learnedLevels() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-doctor-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = server.clientEnvironment
        environment["HOME"] = home
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        try Self.writeState("""
            levels 0.368 0.263 0.21
            moving false
            calibrated false
            contacts 40 3
            ordinary 0.18 0.12 0.1 0.08 0.06 0.15 0.17 0.09 0.11 0.13 0.14 0.16
            deliberate 0.44 0.45 0.43

            """, device: "test-pen", in: home + "/state/gesture-bridge")

        let listing = try GestureBridgeExecutable.run(["devices", "--json"], environment: environment)
        #expect(listing.status == 0, "\(listing.stderr)")
        let devices = try decodedLines(DeviceLine.self, listing.stdout)
        let pen = try #require(devices.first { $0.name == "test-pen" }, "\(listing.stdout)")
        let touch = try #require(devices.first { $0.name == "test-touch" })
        // The keys there were stay as they were.
        #expect(pen.kind == "pen" && pen.listened == true && pen.pressure != nil)
        let learned = try #require(pen.learned?.wrappedValue, "\(pen)")
        #expect(learned.threshold == 0.368)
        #expect(learned.release == 0.263)
        #expect(learned.ordinary == 0.21)
        #expect(learned.moved)
        #expect(!learned.calibrated)
        #expect(learned.ordinaryContacts == 40)
        #expect(learned.deliberatePresses == 3)
        // Nothing kept for the touchscreen: today's levels, from no contact.
        let fresh = try #require(touch.learned?.wrappedValue, "\(touch)")
        #expect(fresh.threshold == 0.7 && !fresh.moved)
        #expect(fresh.ordinaryContacts == 0 && fresh.deliberatePresses == 0)
        // A device without pressure learns nothing: its `learned` is there, and null.
        for device in devices where device.pressure == nil {
            #expect(device.learned != nil && device.learned?.wrappedValue == nil, "\(device)")
        }

        // The table's LEARNED section: a line a pressure device, with its numbers.
        let table = try GestureBridgeExecutable.run(["devices"], environment: environment)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.split(separator: "\n").contains { $0.contains("test-pen: threshold 0.368") && $0.contains(" 40 ") },
                "\(table.stdout)")

        let doctor = try Self.doctor(environment: environment)
        #expect(doctor.status == 0, "\(doctor.findings)")
        let penLine = try #require(doctor.findings.first { $0.check == .pressure && $0.device == "test-pen" }, "\(doctor.findings)").message
        #expect(penLine.contains("0.368") && penLine.contains("0.263") && penLine.contains("0.21"), "\(penLine)")
        #expect(penLine.contains(" 40 ") && penLine.contains(" 3 "), "\(penLine)")
        #expect(doctor.findings.contains { $0.check == .pressure && $0.device == "test-touch" && $0.message.contains("nothing learned") },
                "\(doctor.findings)")

        // Calibrated (as `calibrate --write` marks it): learning no longer applies.
        try Self.writeState("""
            levels none
            moving false
            calibrated true
            contacts 5 0
            ordinary 0.1 0.1 0.1 0.1 0.1
            deliberate \n
            """, device: "test-touch", in: home + "/state/gesture-bridge")
        let again = try GestureBridgeExecutable.run(["devices", "--json"], environment: environment)
        let calibrated = try decodedLines(DeviceLine.self, again.stdout).first { $0.name == "test-touch" }?.learned?.wrappedValue
        #expect(calibrated?.calibrated == true && calibrated?.moved == false, "\(again.stdout)")
        #expect(calibrated?.ordinaryContacts == 5)

        // Found in review: a state file doctor could not read was a warning on stderr alone, and
        // the device's finding read as if nothing had been learned yet.
        try Self.writeState("levels banana\n", device: "test-pen", in: home + "/state/gesture-bridge")
        let damaged = try Self.doctor(environment: environment)
        #expect(damaged.status == 0, "\(damaged.findings)")
        let unread = damaged.findings.filter { $0.check == .learnedState }
        #expect(unread.map(\.status) == [.note] && unread.first?.message.contains("is damaged") == true, "\(damaged.findings)")
    }

    @Test("a key that is no keysym and a broken config are problems, with what to do", .requiresXorg)
    func problemsFound() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile("""
            bindings:
              - {name: undo, gesture: squeeze, action: {key: ctrl+Zee}}
            """, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try Self.doctor(["--config", config], environment: server.clientEnvironment)
        #expect(run.status == 1)
        // A key X does not know is a config error where it is written, as `check` and `run` say.
        let problems = run.findings.filter { $0.status == .problem }
        #expect(problems.map(\.check) == [.config], "\(run.findings)")
        #expect(problems.first?.message.contains("\(config):2:50: error: unknown key `Zee` in `ctrl+Zee`") == true, "\(problems)")
        let table = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(table.status == 1 && table.stdout.hasSuffix("1 problem to fix first.\n"), "\(table.stdout)")

        let broken = try GestureBridgeExecutable.temporaryFile("bindings: 3\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let second = try Self.doctor(["--config", broken], environment: server.clientEnvironment)
        #expect(second.status == 1)
        #expect(second.findings.filter { $0.status == .problem }.map(\.check) == [.config], "\(second.findings)")
        #expect(second.findings.first { $0.check == .config }?.message.contains(":1:11: error:") == true)

        // A config anyone may change: its commands would run as the user.
        let open = try GestureBridgeExecutable.temporaryFile("bindings:\n  - {name: a, gesture: deep-press}\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: open) }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: open)
        let third = try Self.doctor(["--config", open], environment: server.clientEnvironment)
        #expect(third.status == 1)
        let refusal = third.findings.filter { $0.status == .problem }
        #expect(refusal.map(\.check) == [.config] && refusal.first.map { $0.message.contains("refusing the config") && $0.message.contains("chmod go-w \(open)") } == true,
                "\(third.findings)")
    }

    static let mouseKnob = """
        bindings:
          - name: mouse-knob
            gesture: knob
            devices: [mouse]
            center: [500, 400]
            clockwise: {scroll: up}
          - name: pen-press
            gesture: deep-press
            devices: [pen]
            action: {click: right}
        """

    @Test("on Xvfb, a mouse and no pressure: the default config would do nothing, which is a problem, with what to connect or bind; exit 1", .requiresXvfb)
    func noPressureDevices() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let (status, findings) = try Self.doctor(environment: server.clientEnvironment)
        #expect(status == 1, "\(findings)")
        #expect(findings.contains { $0.check == .session && $0.status == .ok && $0.message.contains("DISPLAY=\(server.displayName)") }, "\(findings)")
        #expect(findings.contains { $0.check == .xtest && $0.status == .ok })
        #expect(findings.contains { $0.check == .compositor && $0.status == .note })
        let noPressure = findings.filter { $0.check == .noPressure }
        #expect(noPressure.map(\.status) == [.note] && noPressure.first?.message.contains("never fire: right-click.") == true, "\(noPressure)")
        // What would bring them: the hardware, and the axis its driver must report.
        #expect(noPressure.first.map { $0.message.contains("a pen tablet or a pressure-sensing touchscreen") && $0.message.contains("\"Abs Pressure\"") } == true)
        #expect(findings.filter { $0.check == .unlistened }.map(\.device) == ["Xvfb mouse"], "\(findings)")
        let problems = findings.filter { $0.status == .problem }
        #expect(problems.map(\.check) == [.nothingListened], "\(findings)")
        #expect(problems.first?.message.contains("`devices: [mouse]`") == true, "says what to bind: \(problems)")
        #expect(!findings.contains { $0.check == .pressure })
        #expect(!findings.contains { $0.check == .fixedThreshold }, "the built-in default learns")
        let table = try GestureBridgeExecutable.run(["doctor"], environment: server.clientEnvironment)
        #expect(table.status == 1 && table.stdout.hasSuffix("1 problem to fix first.\n"), "\(table.stdout)")
    }

    /// Found in review of a config written for someone else: a threshold lowered by hand to
    /// 0.3 for a light hand, its ordinary level following at 0.15, held every still press resting
    /// at 0.2 (a scroll arrow held) until it lifted, and nothing said why.
    @Test("a threshold lowered by hand with its ordinary level following at half: a note naming that level, learning or not; with `ordinary` set, none", .requiresXvfb)
    func loweredThreshold() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        func fixed(_ text: String) throws -> [DoctorFindingLine] {
            let config = try GestureBridgeExecutable.temporaryFile(text, suffix: ".yaml")
            defer { try? FileManager.default.removeItem(atPath: config) }
            return try Self.doctor(["--config", config], environment: server.clientEnvironment).findings.filter { $0.check == .fixedThreshold }
        }
        let lowered = "learn: false\nbindings:\n  - {name: menu, gesture: deep-press, devices: [pen], threshold: 0.3, action: {click: right}}\n"
        let notes = try fixed(lowered)
        #expect(notes.map(\.binding) == ["menu"] && notes.first?.message.contains("ordinary level follows at 0.15") == true, "\(notes)")
        #expect(try fixed(lowered.replacingOccurrences(of: "threshold: 0.3,", with: "threshold: 0.3, ordinary: 0.22,")).isEmpty)
        #expect(try fixed(lowered.replacingOccurrences(of: "0.3", with: "0.8")).isEmpty, "not lowered, not learning: nothing to say")
    }

    /// Found in review of calibrating: a light hand's `calibrate --write` measures its ordinary
    /// level at half its threshold (0.2 and 0.1), and doctor took that for a threshold lowered
    /// by hand and told the person to run `calibrate --write`.
    @Test("a light hand's calibrated binding (its device marked calibrated): no note of a lowered threshold; the same binding for a device not calibrated has it", .requiresXvfb)
    func calibratedLightHand() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        var environment = server.clientEnvironment
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-calibrated-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        environment["XDG_STATE_HOME"] = state
        try Self.writeState("levels 0.25 0.2 0.125\nmoving false\ncalibrated true\ncontacts 8 3\nordinary 0.05 0.06 0.07 0.05 0.06\ndeliberate 0.33 0.35 0.34\n", device: "Light Pen",
                            in: state + "/gesture-bridge")
        func lowered(_ device: String) throws -> [DoctorFindingLine] {
            let config = try GestureBridgeExecutable.temporaryFile("""
                learn: false
                bindings:
                  - {name: right-click-light, gesture: deep-press, devices: [{name: "\(device)"}], threshold: 0.2, release: 0.15, ordinary: 0.1, action: {click: right}}
                """, suffix: ".yaml")
            defer { try? FileManager.default.removeItem(atPath: config) }
            return try Self.doctor(["--config", config], environment: environment).findings
                .filter { $0.check == .fixedThreshold && $0.message.contains("ordinary level follows") }
        }
        #expect(try lowered("Light Pen").isEmpty)
        #expect(try lowered("Other Pen").count == 1)
    }

    /// Found in review of a knob all day: a knob written with its center and actions alone
    /// begins at touch-down and ate every click on its ring, unsaid.
    @Test("a knob that begins at touch-down (activation 0) is noted as owning every click on its ring; one with an activation is not", .requiresXvfb)
    func knobAtTouchDown() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        func notes(_ text: String) throws -> [DoctorFindingLine] {
            let config = try GestureBridgeExecutable.temporaryFile(text, suffix: ".yaml")
            defer { try? FileManager.default.removeItem(atPath: config) }
            return try Self.doctor(["--config", config], environment: server.clientEnvironment).findings
                .filter { $0.check == .config && $0.binding == "wheel" }
        }
        let knob = "bindings:\n  - {name: wheel, gesture: knob, center: [640, 400], clockwise: {scroll: down}, counterclockwise: {scroll: up}}\n"
        let found = try notes(knob)
        #expect(found.map(\.status) == [.note], "\(found)")
        #expect(try notes(knob.replacingOccurrences(of: "center: [640, 400],", with: "center: [640, 400], activation: 30,")).isEmpty)
        // Found in review of a knob all day: a ring asked on a knob without volume actions drew
        // nothing, unsaid.
        let ringed = try notes(knob.replacingOccurrences(of: "center: [640, 400],", with: "center: [640, 400], activation: 30, feedback: [ring],"))
        #expect(ringed.count == 1 && ringed.first?.message.contains("nothing is drawn") == true, "\(ringed)")
    }

    @Test("on Xvfb with a config that binds the mouse: the pressure binding is named as idle, nothing is a problem; exit 0", .requiresXvfb)
    func mouseBindingWithoutPressure() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile(Self.mouseKnob, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let (status, findings) = try Self.doctor(["--config", config], environment: server.clientEnvironment)
        #expect(status == 0, "\(findings)")
        #expect(findings.contains { $0.check == .config && $0.status == .ok && $0.message.hasSuffix(": 2 bindings") })
        #expect(findings.first { $0.check == .noPressure }?.message.contains("never fire: pen-press.") == true, "\(findings)")
        // A deep press written without `threshold` has the fixed 0.75: learning leaves it alone.
        let fixed = findings.filter { $0.check == .fixedThreshold }
        #expect(fixed.map(\.binding) == ["pen-press"] && fixed.map(\.status) == [.note] && fixed.first?.message.contains("(0.75)") == true,
                "\(findings)")
        #expect(!findings.contains { $0.status == .problem }, "\(findings)")
        #expect(!findings.contains { $0.check == .unlistened })
        let table = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(table.status == 0 && table.stdout.hasSuffix("GestureBridge can run here.\n"), "\(table.stdout)")
    }

    /// Found in review of an upgrade: `make install` copies the default into the user's config
    /// once; after an upgrade whose default leaves on-screen keyboards and drawing programs alone,
    /// the copy went on acting there, and doctor said "ok".
    @Test("on Xvfb with a config copied from an earlier default (no except lists): a note for each of its three bindings, naming what the default now leaves alone", .requiresXvfb)
    func configFromEarlierDefault() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let earlier = DefaultConfig.text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("applications: {except:") && !$0.hasPrefix("                   ") }.joined(separator: "\n")
        let config = try GestureBridgeExecutable.temporaryFile(earlier, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let findings = try Self.doctor(["--config", config], environment: server.clientEnvironment).findings
        // Xvfb has no pen nor touchscreen: that is the one problem.
        #expect(findings.filter { $0.status == .problem }.map(\.check) == [.nothingListened], "\(findings)")
        let notes = findings.filter { $0.check == .config && $0.status == .note }
        #expect(notes.map(\.binding) == ["right-click", "volume", "touch-right-click"], "\(findings)")
        #expect(notes.allSatisfy { $0.message.contains("onboard") && $0.message.contains("print-config --default") }, "\(notes)")
        // The default as it is now: nothing to say.
        let now = try GestureBridgeExecutable.temporaryFile(DefaultConfig.text, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: now) }
        let current = try Self.doctor(["--config", now], environment: server.clientEnvironment).findings
        #expect(!current.contains { $0.check == .config && $0.status == .note }, "\(current)")
    }

    /// Found in review: a command misspelt, or not installed, said nothing until a gesture failed.
    @Test("on Xvfb, commands whose program is not in PATH, not there, or written as for a shell: a note for each, naming its binding; a program that runs, none; exit 0", .requiresXvfb)
    func commandPrograms() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile("""
            bindings:
              - {name: missing, gesture: long-press, devices: [mouse], action: {command: [gesture-bridge-no-such-program, x]}}
              - {name: gone, gesture: long-press, devices: [mouse], duration: 1, action: {command: [/nonexistent/notify]}}
              - {name: tilde, gesture: long-press, devices: [mouse], duration: 2, action: {command: ["~/bin/notify"]}}
              - {name: present, gesture: long-press, devices: [mouse], duration: 3, action: {command: [true]}}
            """, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let (status, findings) = try Self.doctor(["--config", config], environment: server.clientEnvironment)
        #expect(status == 0, "\(findings)")
        let commands = findings.filter { $0.check == .command }
        #expect(commands.map(\.binding) == ["missing", "gone", "tilde"] && commands.allSatisfy { $0.status == .note }, "\(findings)")
        #expect(commands.first?.message.contains("not found in PATH") == true, "\(commands)")
        #expect(commands.last?.message.contains("without a shell") == true, "\(commands)")
    }

    @Test("on Xvfb with a config naming a device that is not connected: a note with the name nearest it; exit 0", .requiresXvfb)
    func misspeltDevice() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile(Self.mouseKnob + """

              - name: tablet-press
                gesture: deep-press
                devices: [{name: "Xvfb mose"}]
                action: {click: right}
            """, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let (status, findings) = try Self.doctor(["--config", config], environment: server.clientEnvironment)
        #expect(status == 0, "\(findings)")
        let missing = findings.filter { $0.check == .missingDevice }
        #expect(missing.map(\.status) == [.note] && missing.first?.binding == "tablet-press" && missing.first?.device == "Xvfb mose", "\(findings)")
        #expect(missing.first?.message.contains("(did you mean \"Xvfb mouse\"?)") == true, "\(missing)")
    }

    @Test("on Xvfb without XTest: the bridge could not act, a problem saying which extension to enable; exit 1", .requiresXvfb)
    func noXTest() throws {
        let server = try XvfbDisplay(extraArguments: ["-extension", "XTEST"])
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile(Self.mouseKnob, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let (status, findings) = try Self.doctor(["--config", config], environment: server.clientEnvironment)
        #expect(status == 1, "\(findings)")
        let problems = findings.filter { $0.status == .problem }
        #expect(problems.map(\.check) == [.xtest] && problems.first?.message.contains("enable the XTEST extension in the server") == true,
                "\(findings)")
        // Found in review of remote desktops: it said the bridge would recognize gestures,
        // where `run` does not start at all.
        #expect(problems.first?.message.contains("does not start without --dry-run") == true, "\(findings)")
        let table = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(table.status == 1 && table.stdout.hasSuffix("1 problem to fix first.\n"), "\(table.stdout)")

        // A display that does not open is no ok session as well as a problem.
        let refused = try Self.doctor(environment: ["DISPLAY": ":4097", "HOME": NSTemporaryDirectory()])
        #expect(refused.findings.filter { $0.check == .session }.map(\.status) == [.problem], "\(refused.findings)")
    }

    @Test("doctor --help names every check a --json finding can have")
    func helpNamesEveryCheck() throws {
        let help = try GestureBridgeExecutable.run(["doctor", "--help"])
        #expect(help.status == 0)
        // The list after "`check`:", up to its closing parenthesis.
        let flowing = help.stdout.replacingOccurrences(of: "\n", with: " ")
        let list = try #require(flowing.range(of: "(`check`:"), "\(help.stdout)")
        let text = String(flowing[list.upperBound...].prefix { $0 != ")" }) + ")"
        let unnamed = DoctorFindingLine.Check.allCases.map(\.rawValue).filter { !text.contains(" \($0),") && !text.contains(" \($0))") }
        #expect(unnamed.isEmpty, "\(help.stdout)")
    }

    @Test("without an X session doctor says what to do and exits 1")
    func noSession() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = "wayland-0"
        environment["XDG_SESSION_TYPE"] = "wayland"
        let (status, findings) = try Self.doctor(environment: environment)
        #expect(status == 1)
        let problems = findings.filter { $0.status == .problem }
        #expect(problems.map(\.check) == [.session] && problems.first?.message.contains("Wayland") == true, "\(findings)")
    }
}
