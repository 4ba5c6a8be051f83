import ArgumentParser
import Glibc
import GestureKit
import X11Bridge

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record live pen and touch input as a trace, to replay and analyze later.",
        discussion: """
            Writes the trace format (JSON Lines: a header with the devices and the screen, then \
            one line per contact event) to standard output, or to a file with -o. Stops on \
            Ctrl-C, or after --seconds. A device that comes before the first contact is in it; \
            a pen on xf86-input-libinput, which appears when it first comes near the tablet, is \
            waited for (what comes before it is kept); one plugged in later is not, but for one \
            of them switched off and on, or plugged in again: it is recorded again under its id \
            in the header. With --device the trace holds that device alone, and replays without \
            the others (a pen hovering near a finger's press makes it a palm's live).

            A trace holds every pen stroke, which is handwriting: -o creates the file readable \
            by you alone (mode 0600), and never overwrites one unless --force is given.

            Examples:
              gesture-bridge record -o pen.jsonl --device test-pen --seconds 30
              gesture-bridge analyze pen.jsonl
              gesture-bridge replay pen.jsonl --config my-config.yaml
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the trace to this file instead of standard output.", valueName: "file"),
            completion: .file())
    var output: String?

    @Option(help: ArgumentHelp("Record only this device, by id or name (see `gesture-bridge devices`).", valueName: "name-or-id"))
    var device: String?

    // Unconditional: `--seconds -1` reaches `validate`, which says what is wrong, rather than
    // reading as a missing value followed by an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds (of the machine awake: a suspend does not count).", valueName: "n"))
    var seconds: Double?

    @Flag(help: "Replace the -o file if it exists.")
    var force = false

    func validate() throws {
        if let seconds, !(seconds > 0) || !seconds.isFinite {
            throw ValidationError("--seconds must be a positive number of seconds")
        }
        if force, output == nil {
            throw ValidationError("--force replaces the -o file; without -o the trace goes to standard output")
        }
        // Said before anything starts; creating the file refuses it again, should one appear meanwhile.
        if let output, !force, access(output, F_OK) == 0 {
            throw ValidationError("\(output) already exists; pass --force to replace it, or choose another name")
        }
    }

    func run() throws {
        SignalDescriptor.block(SignalDescriptor.bridgeSignals + [SIGPIPE])
        let logger = CommandLogging.logger(verbose: false)
        let connection = try CommandLogging.openDisplay(requirements: .init(xtest: false), logger: logger)
        let signals = try CommandLogging.bridgeSignals { logger.error("\($0)") }
        let session = InputListener(connection: connection)
        // The device is found before the file is made: a name mistyped leaves a trace of last
        // week's as it was, and the retry needs no --force (found in review).
        if let device {
            let sources = session.catalog.contactSources
            let matching = sources.filter { Self.matches($0, device) }
            // A touchpad's contacts have no word in the trace format (its readers know pens,
            // erasers, touchscreens and mice): the recording would hold nothing.
            if let touchpad = matching.first, matching.allSatisfy({ $0.inputDevice?.kind == .touchpad }) {
                throw CommandFailure.error("device \(touchpad.id) \"\(touchpad.name)\" is a touchpad, which a trace cannot hold (it records pens, erasers, touchscreens and mice); `gesture-bridge devices` lists them")
            }
            guard !matching.isEmpty else {
                let known = sources.filter { $0.inputDevice?.kind != .touchpad }.map { "\($0.id) \"\($0.name)\"" }.joined(separator: ", ")
                // A libinput tablet's pen has no device until it comes near.
                let hover = session.catalog.tabletsAwaitingPen.isEmpty ? ""
                    : "; a pen on \(session.catalog.tabletsAwaitingPen.map { "\"\($0.name)\"" }.joined(separator: ", ")) appears once it has come near the tablet: hover it there once, and try again"
                throw CommandFailure.error("no device \"\(device)\" to record; the devices are: \(known.isEmpty ? "none" : known)\(hover)")
            }
        }
        let writer: LineWriter
        if let output {
            do {
                writer = try LineWriter.create(path: output, replacing: force)
            } catch {
                throw CommandFailure.error(error.description)
            }
        } else {
            writer = .standardOutput
        }
        var recorderReference: Recorder?
        let recorder = Recorder(session: session, write: { line in
            if !writer.write(line) { recorderReference?.stop() }
        }, report: { event in
            switch event {
            case .started(let devices):
                let names = devices.map { "\($0.id) \"\($0.name)\" (\($0.kind?.rawValue ?? "?"))" }.joined(separator: ", ")
                logger.info("recording \(names.isEmpty ? "no device" : names) to \(output ?? "standard output"); Ctrl-C stops")
            case .awaitingPen(let tablets):
                let names = tablets.map { "\"\($0.name)\"" }.joined(separator: ", ")
                logger.info("waiting for the pen of \(names) to come near before writing the trace; what comes meanwhile is kept")
            case .deviceRecorded(let device):
                logger.info("recording device \(device.id) \"\(device.name)\" too, come before the first contact")
            case .deviceNotRecorded(let device):
                logger.notice("device \(device.id) \"\(device.name)\" came after the recording started; it is not recorded")
            case .deviceBack(let device, let headerID):
                logger.notice("device \(device.id) \"\(device.name)\" is back; recorded again\(headerID == device.id ? "" : " as device \(headerID), its id in the trace")")
            case .deviceRemoved(let device):
                logger.notice("device \(device.id) \"\(device.name)\" went away; a contact it still had down ends as cancelled")
            case .screenResized(let size):
                logger.warning("the screen is now \(size.width.formatted)x\(size.height.formatted); the trace header keeps the first size")
            case .xError(let error):
                logger.warning("\(error.description)")
            case .finished(let count):
                // Not after a failed write: the error below says the trace is incomplete.
                if writer.failure == nil { logger.info("recorded \(count) event\(count == 1 ? "" : "s")") }
            }
        })
        recorderReference = recorder
        recorder.duration = seconds
        if let device { recorder.deviceFilter = { Self.matches($0, device) } }
        do {
            try recorder.run(signals: signals)
        } catch {
            logger.error("\(error.description)")
            throw CommandFailure.reported()
        }
        recorderReference = nil
        if connection.isLost {
            logger.error("stopped recording: \(connection.loss.message); the trace holds what came before")
            connection.close()
            throw CommandFailure.reported(exitStatus: ConnectionLoss.exitStatus)
        }
        connection.close()
        if let failure = writer.failure {
            logger.error("the trace is incomplete: cannot write \(output ?? "standard output"): \(failure)")
            throw CommandFailure.reported()
        }
    }

    static func matches(_ device: X11Device, _ selector: String) -> Bool {
        if let id = Int(selector) { return device.id == id }
        return device.name == selector
    }
}
