import CX11
import Foundation
import GestureKit
import Testing
import X11Bridge
import XorgTestSupport

/// Whether a force curve a live test drove in real time reached the X server when the test
/// meant it to.
///
/// The bridge dates every sample by the server's stamp, not by when it reads it, so what it
/// judges is exactly the times the server gave the samples. A test's injector that falls
/// behind (a busy machine, suites running side by side) hands the bridge another curve than
/// the one the test means: a slow climb stretched by a stall reads as a force that levelled
/// off. This compares the stamps the server put on what arrived with the curve's own times,
/// so a live test can tell the bridge's failure from the machine's.
///
/// A stimulus is faithful when
/// - as many samples arrived as were sent (one lost is another curve), and
/// - every sample, touch-down and lift included, arrived within `offset` of its intended time
///   after touch-down, the whole curve shifted by its typical delay (the median of the
///   samples' delays): a delay every sample shares changes no distance between stamps, and
///   the bridge sees nothing else, so a touch-down stamped a little late or early is one sample
///   off, not all the others, and
/// - no two samples in a row arrived more than `extraGap` further apart than the curve has them.
///
/// How much a curve can take depends on how close the bridge's judgement of it is to an edge,
/// hence two tolerances, each measured by replaying the curve with its times distorted
/// (`gesture-bridge replay`: the same engine, the trace's times as its clock).
struct StimulusFidelity: Sendable, Equatable {
    /// How far, in seconds, a sample may arrive from its intended time.
    var offset: Double
    /// How much further apart, in seconds, two samples in a row may arrive than the curve has
    /// them. Samples arriving closer together are caught by `offset`: the later one is early.
    var extraGap: Double

    /// How much the live tests' curves can take, measured by replaying each with its times
    /// distorted (`gesture-bridge replay`: the same engine, the trace's times as its clock).
    /// The synthetic presses (the slow climbs, the light presses, the press resting until the
    /// hold limit): replayed with one sample held back and those after it sent at once when
    /// due (the way a test's injector falls behind and catches up), the shortest stall that
    /// changed any of their decisions was 130 ms (the pen's slow climb: its samples come in a
    /// bunch the trend finds no slope in, and it is handed over), 150 ms for the finger's,
    /// 180 ms at the hold limit, 490 ms for the light presses (the decision timeout); every
    /// sample moved at random by up to ±30 ms changed none. (Measured with the hold's earlier
    /// climbing floor of 0.05 a second; the floor of 0.025 only makes a stalled climb read as
    /// a climb more easily.) The six presses of the iPhone recording: every sample moved at
    /// random by up to ±30 ms hands over none of 1,800 presses, and the whole curve from one
    /// sample on 50 ms late none of 710 (100 ms: 6); with the earlier floor the third press
    /// flipped on 3-7 ms, and the recording needed its own 2 ms tolerance.
    ///
    /// A tenth of the hold's 0.2 s trend window, 20 ms, keeps every stimulus several times
    /// inside the smallest distortion that changes a decision, and far beyond the millisecond
    /// or so an idle machine's injector is off by.
    static let standard = StimulusFidelity(offset: HoldPolicy.window / 10, extraGap: HoldPolicy.window / 10)

    /// The clock arithmetic's leeway: intended times in seconds from a recording are sums of
    /// decimals, and a sample exactly at the limit is within it.
    private static let leeway = 1e-6

    /// Judges `arrived` (server milliseconds, touch-down first) against `intended` (seconds,
    /// touch-down first; a lift sent right after the last sample is intended at its time).
    func judge(intended: [Double], arrived: [UInt]) -> StimulusVerdict {
        guard intended.count == arrived.count, let intendedDown = intended.first, let arrivedDown = arrived.first else {
            return .distorted(.count(sent: intended.count, arrived: arrived.count))
        }
        let meant = intended.map { $0 - intendedDown }
        let came = arrived.map { Self.seconds(from: arrivedDown, to: $0) }
        let delays = zip(came, meant).map { $0 - $1 }.sorted()
        let shift = delays[(delays.count - 1) / 2]
        var worst = 0.0
        for index in arrived.indices {
            let due = meant[index] + shift
            if abs(came[index] - due) > offset + Self.leeway {
                return .distorted(.offTime(index: index, due: due, arrived: came[index]))
            }
            worst = max(worst, abs(came[index] - due))
            guard index > 0 else { continue }
            let meantGap = meant[index] - meant[index - 1]
            let cameGap = Self.seconds(from: arrived[index - 1], to: arrived[index])
            if cameGap - meantGap > extraGap + Self.leeway {
                return .distorted(.gap(index: index, intended: meantGap, arrived: cameGap))
            }
        }
        return .faithful(worstOffset: worst)
    }

    /// Seconds from one server stamp to another, negative when `end` is the earlier. XI2
    /// stamps are 32-bit milliseconds that wrap after 49 days; a server that has run that long
    /// wraps between two samples, and the difference read as signed stays right across it.
    static func seconds(from start: UInt, to end: UInt) -> Double {
        Double(Int32(bitPattern: UInt32(truncatingIfNeeded: end) &- UInt32(truncatingIfNeeded: start))) / 1000
    }
}

/// What a judged stimulus was.
enum StimulusVerdict: Sendable, Equatable, CustomStringConvertible {
    /// Every sample in tolerance; the farthest one was `worstOffset` seconds from its time.
    case faithful(worstOffset: Double)
    case distorted(StimulusDistortion)

    var isFaithful: Bool {
        if case .faithful = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .faithful(let worst): "faithful (worst sample \(Self.milliseconds(worst)) from its time)"
        case .distorted(let distortion): "distorted: \(distortion)"
        }
    }

    static func milliseconds(_ seconds: Double) -> String {
        "\(Int((seconds * 1000).rounded())) ms"
    }
}

/// The first way a stimulus left its tolerance.
enum StimulusDistortion: Sendable, Equatable, CustomStringConvertible {
    /// The server took `arrived` samples of `sent`.
    case count(sent: Int, arrived: Int)
    /// Sample `index` arrived `arrived` seconds after touch-down, due `due` seconds after it
    /// (its time in the curve, shifted by the curve's typical delay).
    case offTime(index: Int, due: Double, arrived: Double)
    /// Samples `index - 1` and `index` arrived `arrived` seconds apart, meant `intended`.
    case gap(index: Int, intended: Double, arrived: Double)

    var description: String {
        switch self {
        case .count(let sent, let arrived):
            return "the server took \(arrived) samples of the \(sent) sent"
        case .offTime(let index, let due, let arrived):
            let off = arrived - due
            if index == 0 {
                return "the touch-down arrived \(StimulusVerdict.milliseconds(abs(off))) \(off > 0 ? "late" : "early") "
                    + "against the curve's other samples"
            }
            return "sample \(index) arrived \(StimulusVerdict.milliseconds(abs(off))) \(off > 0 ? "late" : "early"): "
                + "\(Self.fixed(arrived)) s after touch-down, due at \(Self.fixed(due)) s"
        case .gap(let index, let intended, let arrived):
            return "samples \(index - 1) and \(index) arrived \(StimulusVerdict.milliseconds(arrived)) apart "
                + "instead of \(StimulusVerdict.milliseconds(intended))"
        }
    }

    private static func fixed(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}

/// The server stamps of one contact among a device's raw events: its touch-down (the tip's
/// button 1, or a touch's begin), every move while it is down, and its lift. Motion before the
/// touch-down (a pen hovering into place) and events of other touches are not the contact's.
struct ContactArrivals: Sendable, Equatable {
    /// Touch-down, then each move.
    var samples: [UInt] = []
    /// The lift, nil when it has not come (yet).
    var lift: UInt?

    init(samples: [UInt] = [], lift: UInt? = nil) {
        self.samples = samples
        self.lift = lift
    }

    /// The first contact in `events`, oldest first.
    init(_ events: [RawInput]) {
        var touch: Int?
        var isPen = false
        for event in events {
            switch event.kind {
            case .buttonPress where event.detail == 1 && samples.isEmpty && !event.isPointerEmulated:
                isPen = true
                samples.append(event.serverTime)
            case .motion where isPen:
                samples.append(event.serverTime)
            case .buttonRelease where isPen && event.detail == 1:
                lift = event.serverTime
                return
            case .touchBegin where samples.isEmpty:
                touch = event.detail
                samples.append(event.serverTime)
            case .touchUpdate where event.detail == touch:
                samples.append(event.serverTime)
            case .touchEnd where event.detail == touch:
                lift = event.serverTime
                return
            default:
                continue
            }
        }
    }
}

/// A client of its own that watches one virtual device's raw XI2 events, to read the stamps
/// the server gave what a test sent (`ContactArrivals`).
///
/// Raw events reach every client that selects them on the root window, whatever grab the
/// bridge holds, and carry the stamp the server put on the event as its input thread took it
/// from the device: what the bridge dates the sample by. Only the device's own events are
/// selected (a master would relay each a second time).
final class StimulusWitness {
    private let connection: XConnection
    /// The server's id of the watched device.
    let device: Int

    init(_ server: HeadlessXorg, device name: String) throws {
        connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        let listed = DeviceCatalog.query(connection).devices
        guard let device = listed.first(where: { $0.name == name })?.id else {
            connection.close()
            throw ChildProcessError(message: "no device \(name) on \(server.displayName): \(listed.map(\.name))")
        }
        self.device = device
        do {
            try connection.select([.rawInput(of: device, motion: true)], on: connection.root)
        } catch {
            connection.close()
            throw error
        }
    }

    deinit {
        connection.close()
    }

    /// Every raw event of the device since the last call, oldest first. One round trip first:
    /// the server takes in the input its devices have queued before it answers, so everything
    /// a test sent and synced is here.
    func take() -> [RawInput] {
        connection.sync()
        var events: [RawInput] = []
        while let event = connection.nextEvent(reading: false) {
            if case .raw(let raw) = connection.decodeXI2(event), raw.device == device {
                events.append(raw)
            }
        }
        return events
    }

    /// The first contact since the last call, waiting up to `timeout` seconds for its lift.
    func contact(timeout: Double = 1) -> ContactArrivals {
        var events = take()
        let deadline = Date().addingTimeInterval(timeout)
        while ContactArrivals(events).lift == nil, Date() < deadline {
            usleep(5_000)
            events += take()
        }
        return ContactArrivals(events)
    }

    /// Judges the contact since the last call against `curve`'s times (seconds from
    /// touch-down); `liftsAtEnd`: the stimulus lifts right after its last sample, so the lift
    /// is judged as one more sample at that time.
    func judge(_ curve: [(time: Double, force: Double)], liftsAtEnd: Bool, fidelity: StimulusFidelity) -> StimulusVerdict {
        let arrivals = contact()
        var intended = curve.map(\.time)
        var arrived = arrivals.samples
        if liftsAtEnd, let end = intended.last {
            intended.append(end)
            // A lift that never came leaves the counts apart: a distortion, not a pass.
            if let lift = arrivals.lift { arrived.append(lift) }
        }
        return fidelity.judge(intended: intended, arrived: arrived)
    }
}

/// A live test's attempts at its stimuli: each stimulus is played until it reaches the server
/// faithfully, at most a few times, and the bridge is judged on the faithful attempts alone.
///
/// Each attempt's share of the window's events and the bridge's output runs from its start to
/// the next attempt's start (the window's record is drained there), so what comes late stays
/// with the attempt that caused it. Tests using this must not drain the window themselves.
final class StimulusAttempts {
    let bridge: BridgeProcess
    let window: RecorderWindow
    /// Attempts per stimulus before giving up on the environment.
    let limit: Int

    private struct Share {
        var firstLine: Int
        var faithful = false
        var events: [RecordedEvent] = []
        var lines: Range<Int>?
    }

    private var shares: [Share] = []

    init(bridge: BridgeProcess, window: RecorderWindow, limit: Int = 3) {
        self.bridge = bridge
        self.window = window
        self.limit = limit
    }

    /// Plays `stimulus` through `attempt` until its verdict is faithful, and returns that
    /// attempt's result. A distorted attempt is said on the test's log and played again; when
    /// every one is distorted, the test fails on the environment, by name, and this returns nil.
    /// Inside `attempt`, the window's `events` are this attempt's.
    func play<Result>(_ stimulus: String, sourceLocation: SourceLocation = #_sourceLocation,
                      _ attempt: () throws -> (verdict: StimulusVerdict, result: Result)) throws -> Result? {
        var verdicts: [StimulusVerdict] = []
        for number in 1...limit {
            begin()
            let (verdict, result) = try attempt()
            verdicts.append(verdict)
            if verdict.isFaithful {
                shares[shares.count - 1].faithful = true
                return result
            }
            print("stimulus distorted, not judged: \(stimulus), attempt \(number) of \(limit): \(verdict)"
                  + (number < limit ? "; playing it again" : ""))
        }
        Issue.record(Comment(rawValue: "environment: this machine could not deliver \(stimulus) faithfully in \(limit) attempts, "
                                 + "so the bridge was not judged on it: "
                                 + verdicts.map(\.description).joined(separator: "; ")),
                     sourceLocation: sourceLocation)
        return nil
    }

    /// The window's events and the bridge's output lines of the faithful attempts, read now:
    /// call once the last attempt's outcome is in.
    func faithfulOutcome() -> (events: [RecordedEvent], lines: [OutputLine]) {
        close()
        let lines = bridge.lines
        let faithful = shares.filter(\.faithful)
        let ranges = faithful.compactMap(\.lines).map { $0.clamped(to: lines.indices) }
        return (faithful.flatMap(\.events), ranges.flatMap { lines[$0] })
    }

    private func begin() {
        if shares.last?.lines == nil, !shares.isEmpty {
            close()
        } else {
            // What came before the first attempt, or after the last one closed, is no attempt's.
            _ = window.drain()
        }
        shares.append(Share(firstLine: bridge.lines.count))
    }

    /// Gives the open attempt what came since its start.
    private func close() {
        guard let last = shares.indices.last, shares[last].lines == nil else { return }
        shares[last].events = window.drain()
        shares[last].lines = shares[last].firstLine..<bridge.lines.count
    }
}
