import Foundation
import GestureKit
import Testing

/// A command that fails prints its message as it is, without ArgumentParser's `Error:` and
/// usage, and exits with its own status (`CommandFailure`); a mistake on the command line is
/// ArgumentParser's to report, with both.
@Suite("Command line: how a command fails")
struct CommandFailureTests {
    static func environment(without names: [String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !names.contains($0.key) }
    }

    @Test("a broken config: its located errors and nothing else, status 1")
    func brokenConfig() throws {
        let path = try GestureBridgeExecutable.temporaryFile(
            "bindings:\n  - name: a\n    gesture: deep-press\n    threshold: 2\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try GestureBridgeExecutable.run(["check", path])
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr == "\(path):4:16: error: `threshold` must be between 0.01 and 1, not 2\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    @Test("no X server to connect to: one `gesture-bridge: error:` line, status 1")
    func noDisplay() throws {
        let run = try GestureBridgeExecutable.run(["devices"], environment: Self.environment(without: ["DISPLAY"]))
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr.hasPrefix("gesture-bridge: error: DISPLAY is not set"), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
    }

    @Test("no learned state anywhere: the command's own `error:` line, status 1")
    func noStateDirectory() throws {
        let run = try GestureBridgeExecutable.run(["learned"], environment: Self.environment(without: ["HOME", "XDG_STATE_HOME"]))
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr == "error: neither XDG_STATE_HOME nor HOME is set: there is no learned state\n", "\(run.stderr)")
    }

    @Test("doctor's findings say what is wrong; the failure adds nothing to them")
    func doctorWithoutDisplay() throws {
        let run = try GestureBridgeExecutable.run(["doctor"], environment: Self.environment(without: ["DISPLAY"]))
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("1 problem to fix first.\n"), "\(run.stdout)")
        let json = try GestureBridgeExecutable.run(["doctor", "--json"], environment: Self.environment(without: ["DISPLAY"]))
        #expect(json.status == 1 && json.stderr.isEmpty, "\(json.stderr)")
        let problems = try decodedLines(DoctorFindingLine.self, json.stdout).filter { $0.status == .problem }
        #expect(problems.map(\.check) == [.session] && problems.first?.message.contains("DISPLAY is not set") == true, "\(json.stdout)")
    }

    /// Found in review of a caregiver's setup: over ssh, with no DISPLAY, doctor could not say
    /// whether the person's bridge ran, nor on which display to look. Found in review of a
    /// Wayland user's week: from a Wayland session's terminal, the command it gave was refused
    /// as a Wayland session again.
    @Test("doctor without DISPLAY, or in a Wayland session, while a bridge of this user runs: names its process and display, and a command that examines that session",
          .requiresXvfb, arguments: [false, true])
    func doctorWithoutDisplayNamesRunningBridge(inWayland: Bool) throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let executable = try #require(GestureBridgeExecutable.url)
        let bridge = Process()
        bridge.executableURL = executable
        bridge.arguments = ["run", "--json", "--dry-run"]
        bridge.environment = server.clientEnvironment
        let output = Pipe()
        bridge.standardOutput = output
        bridge.standardError = FileHandle.nullDevice
        try bridge.run()
        defer {
            bridge.interrupt()
            bridge.waitUntilExit()
        }
        // Running once it says it listens.
        _ = output.fileHandleForReading.availableData
        let runtime = try temporaryFolder("doctor-runtime")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(FileManager.default.createFile(atPath: runtime + "/wayland-0", contents: nil))
        let session = inWayland ? ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime, "DISPLAY": ":0"] : [:]
        let environment = Self.environment(without: ["DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE"]).merging(session) { $1 }
        let json = try GestureBridgeExecutable.run(["doctor", "--json"], environment: environment)
        #expect(json.status == 1, "\(json.stderr)")
        let notes = try decodedLines(DoctorFindingLine.self, json.stdout).filter { $0.check == .session && $0.status == .note }
        let note = notes.first { $0.message.contains("process \(bridge.processIdentifier) on DISPLAY=\(server.displayName)") }
        let command = "\(inWayland ? "XDG_SESSION_TYPE=x11 " : "")DISPLAY=\(server.displayName) gesture-bridge doctor"
        #expect(note?.message.contains("`\(command)`") == true, "\(json.stdout)")
        // Followed, it examines that session.
        var followed = environment.merging(["DISPLAY": server.displayName]) { $1 }
        if inWayland { followed["XDG_SESSION_TYPE"] = "x11" }
        let examined = try GestureBridgeExecutable.run(["doctor", "--json"], environment: followed)
        #expect(try decodedLines(DoctorFindingLine.self, examined.stdout).contains { $0.check == .session && $0.status == .ok }, "\(examined.stdout)")
    }

    @Test("a mistake on the command line: ArgumentParser's `Error:` with the usage, status 64")
    func commandLineMistake() throws {
        let run = try GestureBridgeExecutable.run(["run", "--no-such-option"])
        #expect(run.status == 64 && !run.crashed)
        #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains("Usage: gesture-bridge run"), "\(run.stderr)")
    }
}

/// One bridge per display: its devices are the display's, and a bridge on each screen would
/// each hear every raw event (a deep press right-clicking twice).
@Suite("One bridge per display, whatever the screen")
struct ScreensTests {
    @Test("with a bridge on screen 0, one on screen 1 of the same display names it and exits 75", .requiresXvfb)
    func secondScreen() throws {
        let server = try XvfbDisplay(extraArguments: ["-screen", "1", "800x600x24"])
        defer { server.stop() }
        var environment = server.clientEnvironment
        environment["DISPLAY"] = server.displayName + ".0"
        let first = try BackgroundBridge(["run", "--dry-run"], environment: environment)
        defer { first.stop() }
        #expect(first.waitUntilListening(), "the first bridge runs on screen 0")

        environment["DISPLAY"] = server.displayName + ".1"
        let second = try GestureBridgeExecutable.run(["run", "--dry-run"], environment: environment, timeout: 8)
        #expect(second.status == 75, "\(second.status): \(second.stderr)")
        #expect(second.stderr.contains("another gesture-bridge (process \(first.process.processIdentifier)) is running"), "\(second.stderr)")

        // Found in review of the service's life: the autostart entry's bridge, beside the
        // service's, exited 75, and where systemd runs autostart entries the session listed a
        // failed unit at every login.
        let autostarted = try GestureBridgeExecutable.run(["run", "--dry-run", "--autostart"], environment: environment, timeout: 8)
        #expect(autostarted.status == 0, "\(autostarted.status): \(autostarted.stderr)")
        #expect(autostarted.stderr.contains("another gesture-bridge (process \(first.process.processIdentifier)) is running"), "\(autostarted.stderr)")
    }

    @Test("the autostart entry's bridge in a Wayland session says why it cannot run, and exits 0; by hand the same exits 78")
    func autostartInWayland() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = "wayland-0"
        let byHand = try GestureBridgeExecutable.run(["run"], environment: environment, timeout: 10)
        let autostarted = try GestureBridgeExecutable.run(["run", "--autostart"], environment: environment, timeout: 10)
        #expect(byHand.status == 78, "\(byHand.status): \(byHand.stderr)")
        #expect(autostarted.status == 0 && autostarted.stderr == byHand.stderr, "\(autostarted.status): \(autostarted.stderr)")
    }
}

/// Found in review: started with its standard output or error closed (`>&-`, or a launcher
/// that closes them), the bridge's X connection took that descriptor: its lines went into the
/// connection, and it hung there, deaf to Ctrl-C and SIGTERM.
@Suite("A closed standard output or error")
struct ClosedOutputTests {
    @Test("run with its standard output or error closed still runs, and stops at Ctrl-C with status 0",
          .requiresXvfb, arguments: [">&-", "2>&-"])
    func closedOutput(redirection: String) throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let bridge = try #require(GestureBridgeExecutable.url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // exec: the bridge itself gets the SIGINT, after 3 s; one that does not hear it is
        // killed 4 s later (status 137).
        process.arguments = ["-c", "exec /usr/bin/timeout --preserve-status -s INT -k 4 3 '\(bridge.path)' run --json --dry-run \(redirection)"]
        process.environment = server.clientEnvironment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "status \(process.terminationStatus) (137: killed, Ctrl-C unheard)")
    }

    /// Found in review of remote desktops: the terminal closed (its window, an ssh connection
    /// lost), the bridge took the SIGHUP for a reload and went on acting, unseen, and the next
    /// `run` was told another one ran.
    @Test("run in a terminal: SIGHUP while the terminal is there reloads; the terminal closing stops the bridge", .requiresXvfb)
    func terminalClosed() throws {
        let run = try TerminalRun()
        // script gives the bridge a terminal of its own, as a terminal window does.
        let terminal = try run.script("echo $$ > '\(run.pidFile)'; exec '\(run.bridge)' run --json --dry-run > '\(run.output)' 2>/dev/null")
        defer { run.end(terminal) }
        let (events, waitFor) = (run.events, TerminalRun.waitFor)
        #expect(waitFor { events().contains { $0.event == .listening } }, "the bridge did not start")
        let process = try run.started()
        // A reload asked for: the terminal is still there.
        kill(process, SIGHUP)
        #expect(waitFor { events().contains { $0.event == .reloadUnavailable } }, "\(events())")
        #expect(!events().contains { $0.event == .stopping })

        // The terminal goes: the bridge stops, and says so where its output goes.
        kill(terminal.processIdentifier, SIGKILL)
        #expect(waitFor { TerminalRun.ended(process) }, "the bridge goes on after its terminal closed")
        #expect(events().contains { $0.event == .stopping }, "\(events())")
        // One left running holds what Foundation waits on for script's exit.
        if !TerminalRun.ended(process) { kill(process, SIGKILL) }
        terminal.waitUntilExit()
    }

    /// Found in review of the day's diff: run as a terminal's own command (`xterm -e`, a
    /// launcher with Terminal=true), the bridge got the emulator's SIGHUP, with the kernel's
    /// hang-up merged into it, and took it for a reload asked from elsewhere: it ran on after
    /// its window closed.
    @Test("run as a terminal's command: the terminal's own SIGHUP, then its closing, stops the bridge", .requiresXvfb)
    func terminalCommandClosed() throws {
        let run = try TerminalRun()
        let (events, waitFor, output) = (run.events, TerminalRun.waitFor, run.output)
        // A terminal's two ends, as posix_openpt, unlockpt (TIOCSPTLCK) and ptsname (TIOCGPTN) make them.
        // Close-on-exec: a copy in the bridge would keep the terminal open once this one closes.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(master >= 0 && ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        var masterOpen = true
        defer { if masterOpen { close(master) } }
        // The bridge as the emulator's command: a session of its own, the terminal its
        // controlling one (opened as its standard input after setsid), this process its parent.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID, a macro Swift does not import
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/pts/\(number)", O_RDWR, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words = [run.bridge, "run", "--json", "--dry-run"]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = run.environment
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var process: pid_t = 0
        try #require(posix_spawn(&process, run.bridge, &actions, &attributes, &argv, &envp) == 0)
        defer { kill(process, SIGKILL); waitpid(process, nil, 0) }
        #expect(waitFor { events().contains { $0.event == .listening } }, "the bridge did not start")
        // As xterm closing its window: SIGHUP to its command, then the terminal closed, before
        // the bridge reads the signal (stopped meanwhile, so the order is sure).
        kill(process, SIGSTOP)
        kill(process, SIGHUP)
        close(master)
        masterOpen = false
        kill(process, SIGCONT)
        var status: Int32 = 0
        #expect(waitFor { waitpid(process, &status, WNOHANG) == process }, "it runs on after its terminal closed: \(events())")
        #expect(events().last?.event == .stopping && events().last?.reason == "terminal-closed", "\(events())")
    }

    /// Found in review of a terminal's life: `nohup` sets SIGHUP to be ignored, and the bridge,
    /// which reads it from a signalfd, took the terminal's hang-up for the terminal closing all
    /// the same, and stopped.
    @Test("run under nohup: its terminal closing does not stop it; a later SIGHUP reloads", .requiresXvfb)
    func nohupOutlivesItsTerminal() throws {
        try TerminalRun.expectOutlivesItsTerminal { run in
            "echo $$ > '\(run.pidFile)'; exec nohup '\(run.bridge)' run --json --dry-run > '\(run.output)' 2>/dev/null"
        }
    }

    /// Found in review of a terminal's life: with `stty tostop`, a bridge started in the
    /// background beside one already running was stopped by SIGTTOU as it said why it would not
    /// run, and lingered as a stopped job, saying nothing.
    @Test("a background run refused at start under stty tostop says why and exits 75", .requiresXvfb)
    func refusedInTheBackgroundUnderTostop() throws {
        let run = try TerminalRun()
        let first = try run.script("echo $$ > '\(run.pidFile)'; exec '\(run.bridge)' run --json --dry-run > '\(run.output)' 2>/dev/null")
        defer { run.end(first) }
        #expect(TerminalRun.waitFor { run.events().contains { $0.event == .listening } }, "the first bridge did not start")
        let status = run.folder + "/status"
        let second = try run.script("stty tostop; set -m; '\(run.bridge)' run --dry-run & wait $!; echo $? > '\(status)'")
        defer { run.end(second) }
        #expect(TerminalRun.waitFor { (try? String(contentsOfFile: status, encoding: .utf8))?.hasPrefix("75") == true },
                "\((try? String(contentsOfFile: status, encoding: .utf8)) ?? "no status: stopped")")
    }

    /// Found in review of a terminal's life: `run --json | tee log` stopped with Ctrl-C, which
    /// the terminal sends to tee as well, exited 1 saying it could not write its output.
    @Test("stopped by SIGINT as its output's reader went with the same Ctrl-C: status 0, no error", .requiresXvfb)
    func interruptedWithItsReader() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let executable = try #require(GestureBridgeExecutable.url)
        let process = Process(), output = Pipe(), errors = Pipe()
        process.executableURL = executable
        process.arguments = ["run", "--json", "--dry-run"]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tee-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        process.environment = server.clientEnvironment.merging(["HOME": folder, "XDG_CONFIG_HOME": folder + "/config",
                                                                "XDG_STATE_HOME": folder + "/state"]) { $1 }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var read = Data()
        while !String(decoding: read, as: UTF8.self).contains(#""event":"listening""#) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            read += chunk
        }
        #expect(String(decoding: read, as: UTF8.self).contains(#""event":"listening""#), "the bridge did not start")
        try output.fileHandleForReading.close()
        kill(process.processIdentifier, SIGINT)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(log)")
    }

    /// Found in review of a terminal's life: run blocked Ctrl-C and SIGTERM from its start, so
    /// neither was read while the connection waited on a server that never answered (a stopped
    /// Xorg, a stalled forwarding) or through the 15 s wait for a bridge to hand over: only
    /// SIGKILL ended it.
    /// Ctrl-\\ too: found in review of the day's change, the Swift runtime's backtracer took it
    /// for a crash, printed its report, and the bridge waited on.
    @Test("Ctrl-C or Ctrl-\\ ends run while its X server does not answer, and while it waits for a bridge to hand its display over",
          .requiresXvfb)
    func interruptedWhileStarting() throws {
        // One after the other: each makes its own silent server at the first free number.
        for signal in [SIGINT, SIGQUIT] { try interrupted(whileStartingBy: signal) }
    }

    func interrupted(whileStartingBy signal: Int32) throws {
        let executable = try #require(GestureBridgeExecutable.url)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("starting-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func start(_ arguments: [String], display: String) throws -> Process {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ["DISPLAY": display, "HOME": folder, "XDG_CONFIG_HOME": folder + "/config",
                                   "XDG_STATE_HOME": folder + "/state", "PATH": "/usr/bin:/bin"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        func endsSoon(_ process: Process) -> Bool {
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            return !process.isRunning
        }

        // A server that takes the connection and never answers.
        var number = 4000
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { number += 1 }
        let path = "/tmp/.X11-unix/X\(number)"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener, 4) == 0)
        let silent = try start(["run", "--dry-run"], display: ":\(number)")
        defer { if silent.isRunning { kill(silent.processIdentifier, SIGKILL) } }
        // The stimulus: the bridge has connected, and waits for the server's answer.
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 5000) == 1, "the bridge never connected")
        let connected = accept(listener, nil, nil)
        defer { if connected >= 0 { close(connected) } }
        usleep(200_000)
        #expect(silent.isRunning, "it did not wait for the server")
        kill(silent.processIdentifier, signal)
        #expect(endsSoon(silent), "unread while connecting")

        // A bridge stopped with Ctrl-Z holds the display; another asked to take it over waits.
        let server = try XvfbDisplay()
        defer { server.stop() }
        let stopped = try start(["run", "--dry-run"], display: server.displayName)
        defer { kill(stopped.processIdentifier, SIGKILL) }
        usleep(1_000_000)
        kill(stopped.processIdentifier, SIGSTOP)
        let replacing = try start(["run", "--replace", "--dry-run"], display: server.displayName)
        defer { if replacing.isRunning { kill(replacing.processIdentifier, SIGKILL) } }
        usleep(1_500_000)
        #expect(replacing.isRunning, "the stimulus: it waits for the stopped bridge")
        kill(replacing.processIdentifier, signal)
        #expect(endsSoon(replacing), "unread while waiting for the hand-over")
        kill(stopped.processIdentifier, SIGCONT)
    }

    /// Found in review of remote desktops: a bridge left running after its terminal closed
    /// (`run &`, then `disown` or `exit`: the shell passes the hang-up on to none of it) took the
    /// `kill -HUP` meant to reload its config for the terminal closing, and stopped.
    @Test("run in the background of a terminal that closed: a later SIGHUP from elsewhere reloads, it does not stop", .requiresXvfb)
    func backgroundAfterTerminalClosed() throws {
        // A shell with job control in script's terminal starts the bridge as a background job
        // (a process group of its own), then waits to be hung up.
        try TerminalRun.expectOutlivesItsTerminal { run in
            "set -m; '\(run.bridge)' run --json --dry-run > '\(run.output)' 2>/dev/null & echo $! > '\(run.pidFile)'; exec sleep 600"
        }
    }
}

/// A terminal test's X server and folder of its own, where the bridge's `--json` output goes
/// and its config would be; its events read back as they come.
final class TerminalRun {
    let server: XvfbDisplay
    let bridge: String
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-\(UUID().uuidString)").path
    var output: String { folder + "/run.jsonl" }
    /// Where a command run in `script` writes the bridge's process id.
    var pidFile: String { folder + "/pid" }
    /// The server's, with the home and config folder here.
    let environment: [String: String]

    init() throws {
        bridge = try #require(GestureBridgeExecutable.url).path
        server = try XvfbDisplay()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        environment = server.clientEnvironment.merging(["HOME": folder, "XDG_CONFIG_HOME": folder + "/config"]) { $1 }
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `command` run by `sh` in a terminal of its own that `script` makes, as a terminal window does.
    func script(_ command: String) throws -> Process {
        let terminal = Process()
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        terminal.arguments = ["-q", "-c", command, "/dev/null"]
        terminal.environment = environment.merging(["SHELL": "/bin/sh"]) { $1 }
        terminal.standardInput = Pipe()
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
        return terminal
    }

    /// The terminal gone, whatever the test left.
    func end(_ terminal: Process) {
        guard terminal.isRunning else { return }
        kill(terminal.processIdentifier, SIGKILL)
        terminal.waitUntilExit()
    }

    /// The bridge's process id, as the command wrote it.
    func started() throws -> Int32 {
        try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The events the bridge printed so far.
    func events() -> [RunEventLine] {
        (try? decodedLines(OutputLine.self, (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""))?.compactMap(\.event) ?? []
    }

    /// Runs `command` (which starts the bridge with `run --json --dry-run`, its output in
    /// `output`, and writes its process id to `pidFile`) in a terminal, closes the terminal, and
    /// checks that the bridge goes on: it does not stop, a SIGHUP from elsewhere then reloads,
    /// and SIGTERM stops it.
    static func expectOutlivesItsTerminal(_ command: (TerminalRun) -> String,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try TerminalRun()
        let terminal = try run.script(command(run))
        defer { run.end(terminal) }
        let events = run.events
        #expect(waitFor { events().contains { $0.event == .listening } }, "the bridge did not start", sourceLocation: sourceLocation)
        let process = try run.started()
        defer { kill(process, SIGKILL) }
        kill(terminal.processIdentifier, SIGKILL)
        // The stimulus: the terminal is gone (script's end hangs it up). Not waited for through
        // Foundation, which waits on what the bridge still holds.
        #expect(waitFor { ended(terminal.processIdentifier) }, "the terminal did not close", sourceLocation: sourceLocation)
        usleep(300_000)
        #expect(kill(process, 0) == 0 && !events().contains { $0.event == .stopping }, "it stopped with its terminal: \(events())",
                sourceLocation: sourceLocation)
        // A reload asked for from elsewhere, as a person does after editing the config.
        kill(process, SIGHUP)
        #expect(waitFor { events().contains { $0.event == .reloadUnavailable } }, "\(events())", sourceLocation: sourceLocation)
        #expect(!events().contains { $0.event == .stopping }, "it stopped: \(events())", sourceLocation: sourceLocation)
        kill(process, SIGTERM)
        #expect(waitFor { events().contains { $0.event == .stopping } }, "\(events())", sourceLocation: sourceLocation)
    }

    /// Whether `process` has ended (gone, or a zombie not yet reaped).
    static func ended(_ process: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// Whether `condition` holds within ten seconds.
    static func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }
}
