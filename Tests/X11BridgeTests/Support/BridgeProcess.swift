import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// The built `gesture-bridge` executable running a command against a test server, with its
/// output read as it comes. Stopped (SIGKILL at worst) when the test lets go of it, pass or fail.
final class BridgeProcess {
    let child: ChildProcess
    /// The folder of its own `environment` made for it, removed once it has stopped (left,
    /// thousands a full run piled up in the temporary directory).
    private let ownFolder: String?

    /// The executable built beside the test bundle.
    static var executable: String? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("gesture-bridge").path
        return FileManager.default.isExecutableFile(atPath: besideTests) ? besideTests : nil
    }

    /// When a started command is ready for input.
    enum Readiness {
        /// `run --json`'s `{"event":"listening"}`: its event selection is in place, so input
        /// sent from now on reaches it.
        case listening
        /// Words of another command on stderr (`record`, `calibrate` tell a person so).
        case says(String)
        /// At once: a command that answers and exits.
        case immediately
    }

    /// Starts `arguments` and waits until it is `ready`. `environment` adds to or replaces
    /// variables of the clean environment.
    convenience init(_ arguments: [String], server: HeadlessXorg, environment: [String: String] = [:],
                     ready: Readiness = .listening, typesInput: Bool = false, umask: String? = nil,
                     ownProcessGroup: Bool = false) throws {
        try self.init(arguments, displayName: server.displayName, environment: environment, ready: ready,
                      typesInput: typesInput, umask: umask, ownProcessGroup: ownProcessGroup)
    }

    /// `umask` (`"002"`): the command runs under that file mode mask, as a shell set to it starts it.
    /// `ownProcessGroup`: as a job of a shell with job control (`ChildProcess`). `outputFile`:
    /// its standard output is that file (`/dev/full`), as a shell's `>` makes it. `user`: it
    /// runs as that user, its own folder theirs.
    init(_ arguments: [String], displayName: String, environment: [String: String] = [:],
         ready: Readiness = .listening, typesInput: Bool = false, umask: String? = nil, ownProcessGroup: Bool = false,
         outputFile: String? = nil, user: OtherUser? = nil) throws {
        guard let executable = Self.executable else {
            throw ChildProcessError(message: "gesture-bridge is not built beside the tests; run `swift build` first")
        }
        if case .listening = ready, arguments.first != "run" || !arguments.contains("--json") {
            throw ChildProcessError(message: "only `run --json` says it listens: \(arguments.joined(separator: " "))")
        }
        let base = Self.environment(displayName)
        ownFolder = base[Self.ownFolderKey].map { ($0 as NSString).deletingLastPathComponent }
        let environment = base.merging(environment) { $1 }
        if let user {
            if let ownFolder, chown(ownFolder, user.uid, user.gid) != 0 {
                throw ChildProcessError(message: "cannot give \(ownFolder) to uid \(user.uid): \(String(cString: strerror(errno)))")
            }
            let limit = user.processLimit.map { ["/usr/bin/prlimit", "--nproc=\($0):\($0)", "--"] } ?? []
            let command = limit + ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", executable]
            child = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()) + arguments,
                                     environment: environment, typesInput: typesInput)
        } else if umask != nil || outputFile != nil {
            let script = (umask.map { "umask \($0) && " } ?? "") + #"exec "$0" "$@""# + (outputFile.map { " > '\($0)'" } ?? "")
            child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script, executable] + arguments,
                                     environment: environment, typesInput: typesInput)
        } else {
            child = try ChildProcess(executable: executable, arguments: arguments, environment: environment, typesInput: typesInput,
                                     ownProcessGroup: ownProcessGroup)
        }
        let isReady: ((String, String) -> Bool)?
        switch ready {
        case .listening: isReady = { output, _ in output.contains(#"{"event":"listening","#) }
        case .says(let words): isReady = { _, log in log.contains(words) }
        case .immediately: isReady = nil
        }
        if let isReady, !child.waitForOutput(timeout: 10, until: isReady) {
            let log = child.errorOutput
            child.stop()
            throw ChildProcessError(message: "gesture-bridge \(arguments.joined(separator: " ")) did not start: \(log)")
        }
    }

    /// A user other than root for a command to run as.
    struct OtherUser {
        let uid: uid_t
        let gid: gid_t
        /// At most this many processes and threads of the user (`ulimit -u`), which binds
        /// only users other than root.
        var processLimit: Int?

        static let nobody = OtherUser(uid: 65534, gid: 65534)
    }

    deinit {
        child.stop()
        if let ownFolder { try? FileManager.default.removeItem(atPath: ownFolder) }
    }

    /// The variable whose folder's parent is the one `environment` made.
    private static let ownFolderKey = "XDG_STATE_HOME"

    /// A clean environment: the test's display, and no user config or Wayland leaking in.
    static func environment(_ server: HeadlessXorg) -> [String: String] {
        environment(server.displayName)
    }

    static func environment(_ displayName: String) -> [String: String] {
        // A folder of its own holds where its config would be and its state: a bridge with no
        // config watches the nearest folder above that path for one to come, and in the
        // temporary directory itself every file another test made woke it (a count of its
        // wakeups read 48 where 1 is the bridge's own).
        let own = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-home-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        } catch {
            Issue.record("a test bridge's own folder could not be made: \(error)")
        }
        return [
            "DISPLAY": displayName,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": FileManager.default.temporaryDirectory.path,
            "XDG_CONFIG_HOME": own.appendingPathComponent("no-config").path,
            // Every bridge learns from nothing: a state kept by an earlier test (or run) would
            // move its deep press's levels.
            "XDG_STATE_HOME": own.appendingPathComponent("state").path,
        ]
    }

    var outputLines: [String] {
        child.output.split(separator: "\n").map(String.init)
    }

    var log: String { child.errorOutput }

    /// Times the bridge was switched out since it started (`ChildProcess.contextSwitches`).
    func contextSwitches() throws -> Int { try child.contextSwitches() }

    /// Waits until the bridge has not woken for `quiet` seconds: it has read everything it was
    /// sent and sleeps. False when it still wakes after `timeout`.
    func waitUntilAsleep(quiet: Double, timeout: Double = 3) throws -> Bool {
        try child.waitUntilAsleep(quiet: quiet, timeout: timeout)
    }

    /// Stdout's lines (the `--json` output), each decoded into the type that printed it. A line
    /// that does not decode is an issue of the test: a renamed or missing key fails here.
    var lines: [OutputLine] {
        let output = child.output
        let text = output.utf8.count > decodedLength ? output.utf8.dropFirst(decodedLength) : Substring("").utf8
        // Only whole lines, and each once: the output grows while a test waits on it.
        guard let end = text.lastIndex(of: UInt8(ascii: "\n")) else { return decodedLines }
        for line in text[..<end].split(separator: UInt8(ascii: "\n")) {
            do {
                decodedLines.append(try JSONDecoder().decode(OutputLine.self, from: Data(line)))
            } catch {
                Issue.record("gesture-bridge printed a line no output type reads: \(String(decoding: line, as: UTF8.self)): \(error)")
            }
        }
        decodedLength += text.distance(from: text.startIndex, to: end) + 1
        return decodedLines
    }

    private var decodedLines: [OutputLine] = []
    private var decodedLength = 0

    /// Stdout's lines decoded as `Line`, for a command that prints one kind of line (`devices
    /// --json`: `DeviceLine`; `learned --json`: `LearnedStateLine`). Throws at a line that does
    /// not decode.
    func printed<Line: Decodable>(_ type: Line.Type) throws -> [Line] {
        try child.output.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
    }

    /// The bridge's own events of one kind (`run --json`), in order.
    func events(_ kind: RunEventLine.Event) -> [RunEventLine] { lines.events(kind) }

    /// The gesture, action, decision and ownership lines, each kind in order.
    var gestures: [GestureLine] { lines.gestures }
    var actions: [ActionLine] { lines.actions }
    var decisions: [DecisionLine] { lines.decisions }
    var ownerships: [OwnershipLine] { lines.ownerships }

    /// Waits until the bridge has reported `count` events of `kind`; false on a timeout.
    func waitForEvents(_ kind: RunEventLine.Event, count: Int = 1, timeout: Double = 3) -> Bool {
        waitForLines(timeout: timeout) { lines in lines.events(kind).count >= count }
    }

    /// What became of held input (`run --json`'s ownership lines), waiting up to `timeout` for
    /// one that `matches`; nil when none came.
    func ownership(timeout: Double = 3, where matches: (OwnershipLine) -> Bool = { _ in true }) -> OwnershipLine? {
        var found: OwnershipLine?
        let came = waitForLines(timeout: timeout) { lines in
            found = lines.lazy.compactMap(\.ownership).first(where: matches)
            return found != nil
        }
        return came ? found : nil
    }

    /// Waits until the lines printed so far meet `condition`; false on a timeout.
    func waitForLines(timeout: Double = 3, until condition: ([OutputLine]) -> Bool) -> Bool {
        child.waitForOutput(timeout: timeout) { _, _ in condition(lines) }
    }

    /// A device the bridge listed as it started listening or as it came (`run --json`), by name.
    func device(named name: String) -> DeviceLine? {
        let listed = events(.listening).flatMap { $0.devices ?? [] } + events(.deviceAdded).compactMap(\.device)
        return listed.last { $0.name == name }
    }

    /// The id the server gave the device named `name`, as the bridge listed it.
    func deviceID(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try #require(device(named: name)?.id, "the bridge lists no device \(name): \(lines)", sourceLocation: sourceLocation)
    }

    /// The pipe from the bridge's standard output holds only `bytes` from now on
    /// (`ChildProcess.limitOutputPipe`); what it printed so far is read first.
    func limitOutputPipe(to bytes: Int32) -> Bool {
        _ = child.output
        return child.limitOutputPipe(to: bytes)
    }

    /// As `limitOutputPipe`, for its standard error (the log).
    func limitErrorPipe(to bytes: Int32) -> Bool {
        _ = child.errorOutput
        return child.limitErrorPipe(to: bytes)
    }

    /// Sends `signal` and waits for the exit status.
    func stop(with signal: Int32) -> Int32? {
        child.kill(signal: signal)
        return child.waitForExit(timeout: 5)
    }
}

extension HeadlessXorg {
    /// `gesture-bridge run --json` with `options` on this server, once it listens; with
    /// `config`, that text in a temporary file is its `--config`.
    func bridge(_ options: [String] = [], config: String? = nil, environment: [String: String] = [:]) throws -> BridgeProcess {
        let configOptions = try config.map { ["--config", try temporaryConfig($0)] } ?? []
        return try BridgeProcess(["run", "--json"] + options + configOptions, server: self, environment: environment)
    }
}

/// One gesture, action or decision line of `--json` output without its times, for comparing
/// runs; nil for the other lines.
func timeless(_ line: OutputLine) -> String? {
    switch line {
    case .gesture(var gesture):
        gesture.t = 0
        return JSONLineEncoder.line(gesture)
    case .action(var action):
        action.t = 0
        return JSONLineEncoder.line(action)
    case .decision(var decision):
        decision.t = 0
        // A decision's hold time is a difference of two times: a recording keeps them to the
        // microsecond, the live bridge has them exact.
        decision.held = 0
        return JSONLineEncoder.line(decision)
    case .learned, .ownership, .event:
        return nil
    }
}

/// A config file in the temporary directory, for the bridge to run.
func temporaryConfig(_ text: String) throws -> String {
    // In a folder of its own: the bridge watches the folder holding its config, and every file
    // another test made in the temporary directory itself woke it.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("config.yaml")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}
