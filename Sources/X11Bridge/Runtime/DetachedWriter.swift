import Dispatch
import Glibc
import Synchronization

/// Writes text to a descriptor without ever waiting for its reader, so that a reader who stops
/// reading never stops the bridge. Found in review: with its output on a terminal paused by
/// Ctrl-S, or on a pipe into a pager, the bridge waited in a write from its event loop; every
/// press it held back stayed frozen, for every application, and the signals that would stop it
/// went unread. While the descriptor takes text at once (`poll` says so, and nothing waits
/// before it) a line is written there and then (but never to a terminal: `poll` there says
/// only that some room is left, and a longer line waits for the rest), so it is out before whatever the caller does
/// next (an action's line before its click, as readers of `--json` rely on); else it waits, in
/// order, for a thread of the writer's own. At most `limit` bytes wait; text beyond that is
/// dropped, whole, and counted (`takeDropped`). A write that fails (a full disk, a pipe whose
/// reader is gone) ends the writing, and `failure` says why. The thread is a `SerialWorker`'s:
/// at the process limit, where none can be made, lines wait (up to `limit`) and handing one
/// over still returns at once.
public final class DetachedWriter: Sendable {
    /// Why the writing ended.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The `errno` of the write that failed.
        public let code: Int32

        /// Whether the reader closed its end (a pipe into `head`): nobody reads what comes next.
        public var readerGone: Bool { code == EPIPE }

        public var description: String { String(cString: strerror(code)) }
    }

    private struct State {
        var waiting = 0
        var dropped = 0
        var failure: Failure?
    }

    /// What may wait unwritten, by default: some thousands of lines.
    public static let defaultLimit = 1 << 20

    public let descriptor: Int32
    private let limit: Int
    /// Whether a line may be written from the caller's thread when there is room: not to a
    /// terminal (found in review: a terminal's program that stopped reading, not by Ctrl-S,
    /// left the loop waiting in the write `poll` had allowed).
    private let writesAtOnce: Bool
    private let state = Mutex(State())
    private let worker: SerialWorker

    public init(descriptor: Int32, limit: Int = DetachedWriter.defaultLimit) {
        self.descriptor = descriptor
        self.limit = limit
        writesAtOnce = isatty(descriptor) == 0
        worker = SerialWorker()
    }

    /// Hands `line` and a line end over to be written; returns at once. False once the writing
    /// has failed (`failure`); a line dropped because too much waits still returns true.
    @discardableResult
    public func write(_ line: String) -> Bool {
        write(text: line + "\n")
    }

    /// Text as it is, with whatever line ends it holds.
    @discardableResult
    public func write(text: String) -> Bool {
        let bytes = Array(text.utf8)
        let accepted: Bool? = state.withLock { state in
            guard state.failure == nil else { return nil }
            // A line a pipe or terminal takes whole at once (it has a page free): written now.
            if writesAtOnce, state.waiting == 0, bytes.count <= Self.directLimit, takesTextNow() {
                if let code = LineWriter.writeWhole(bytes, to: descriptor) { state.failure = Failure(code: code) }
                return false
            }
            guard state.waiting + bytes.count <= limit else {
                state.dropped += 1
                return false
            }
            state.waiting += bytes.count
            return true
        }
        guard let accepted else { return false }
        if accepted { worker.submit { self.writeNow(bytes) } }
        return failure == nil
    }

    /// `line`, as `write` takes it, and before it, where lines were dropped since the last
    /// telling, the line `marker` makes of their number: all that waited is written by then
    /// (`takeDropped`), so the marker stands where they are missing. Whether the writing goes
    /// on, and how many were dropped (0: none).
    public func write(_ line: String, markingDropped marker: ((Int) -> String)?) -> (goesOn: Bool, dropped: Int) {
        let dropped = takeDropped()
        if dropped > 0, let marker { write(marker(dropped)) }
        return (write(line), dropped)
    }

    /// The most written at once from the caller's thread: what a pipe that reports room takes
    /// without waiting (PIPE_BUF).
    static let directLimit = 4096

    /// Whether the descriptor takes text now without waiting.
    private func takesTextNow() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLOUT) != 0
    }

    /// Why the writing ended; nil while it goes on.
    public var failure: Failure? {
        state.withLock { $0.failure }
    }

    /// The texts dropped because too much waited unwritten, once all that waited is written
    /// (the reader reads again); 0 until then, and once told.
    public func takeDropped() -> Int {
        state.withLock { state in
            guard state.waiting == 0 else { return 0 }
            defer { state.dropped = 0 }
            return state.dropped
        }
    }

    /// Waits until everything handed over is written, or `timeout` seconds pass; false then
    /// (a reader who still does not read, or no thread to write it at the process limit: what
    /// waits is lost as the process ends).
    @discardableResult
    public func finish(timeout: Double) -> Bool {
        finish(by: .now() + timeout)
    }

    /// As `finish(timeout:)`, until `deadline`: writers that share one wait share one deadline.
    @discardableResult
    public func finish(by deadline: DispatchTime) -> Bool {
        // With no thread to write them (the process limit; found in review of the day's change:
        // on a terminal, where every line waits for one, nothing the bridge said was ever
        // shown), they are written here, as the process ends.
        worker.finish(by: deadline)
    }

    private func writeNow(_ bytes: [UInt8]) {
        // A reader gone is a write error here (the worker's thread blocks SIGPIPE with every
        // other signal): never the death of the process, with a button held.
        guard state.withLock({ $0.failure == nil }) else {
            state.withLock { $0.waiting -= bytes.count }
            return
        }
        let failed = LineWriter.writeWhole(bytes, to: descriptor)
        state.withLock { state in
            state.waiting -= bytes.count
            if let failed, state.failure == nil { state.failure = Failure(code: failed) }
        }
    }
}

/// A `TextOutputStream` for a log handler whose lines go through a `DetachedWriter`.
public struct DetachedStream: TextOutputStream, Sendable {
    public let writer: DetachedWriter

    public init(writer: DetachedWriter) {
        self.writer = writer
    }

    public mutating func write(_ string: String) {
        writer.write(text: string)
    }
}
