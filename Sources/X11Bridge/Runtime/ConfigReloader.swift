import GestureKit
import Glibc

/// Reads the config again while the bridge runs: on SIGHUP, and when its file changes (written
/// in place, replaced by an editor's rename, created where the built-in default was running),
/// once the file has been quiet for `settleTime` (an editor's save is a burst of events); one
/// still open for writing, once its writer closes it (or has left it alone for `writingTime`:
/// read half-written, a file's first bindings would replace the running ones; read just made,
/// before `cat >` or `curl -o` wrote, it would be empty). The watch keeps whether it is open
/// across its reads: the writer's own change of mode meanwhile does not end the wait.
/// A broken file keeps the bindings already running: the outcome says what was wrong, and
/// the bridge applies only what loaded. A change that loads the bindings already running (a
/// save with nothing edited, an editor's autosave, `touch`) is no news: nothing is applied
/// or told again.
///
/// It reads files and the watch's descriptor, nothing of X; the bridge asks for its deadline
/// and descriptor on every wakeup and applies what it returns.
public final class ConfigReloader {
    /// What a reload came to.
    public enum Outcome: Sendable {
        /// The config loaded: apply it to contacts that begin from now on.
        case reloaded(BindingSet, source: ConfigSource)
        /// The file is broken; the bindings running stay. `message` has file:line:column.
        case rejected(source: ConfigSource, message: String)
        /// SIGHUP, but the running config has no file to read again (the built-in default).
        case unavailable
        /// The watched file was removed (alone, or with its folder); the bindings running stay.
        case fileRemoved(path: String)
        /// Changes are no longer noticed: neither the file's directory nor a folder above it
        /// can be watched any more.
        case unwatched(path: String, reason: String)
    }

    /// Where SIGHUP reads the config again; the built-in default has no file.
    public private(set) var source: ConfigSource
    /// The watch on the config file (or on the user's file the built-in default waits for);
    /// nil when nothing is watched.
    public private(set) var watch: ConfigFileWatch?
    /// How long the file must be quiet before it is read.
    public let settleTime: Double
    /// How long a file still open for writing must be quiet before it is read all the same (a
    /// writer that keeps it open).
    public let writingTime: Double
    /// When the file, changed, has been quiet long enough to read.
    public private(set) var nextDeadline: Double?

    /// Whether the watched file was there when last looked at: its removal is told once, and
    /// a folder made where the built-in default waits for a file is no news.
    private var fileWasThere: Bool
    /// Whether the file was found empty at the last settle, and is waited out: an editor that
    /// truncates the file and closes it, then writes it anew, leaves it empty between.
    private var waitingOutEmpty = false
    /// What the watch watched, for SIGHUP to watch again once it is lost.
    private let watchedPath: String?
    /// The bindings running, loaded from `source`; nil while what runs is not what the file
    /// last said (it was broken, or removed): loading that file again is then news.
    private var running: BindingSet?

    /// `running`: the bindings the bridge starts with, when they are `source`'s as it is now.
    /// `pipeWait`: how long a reload waits for a pipe's writer's next bytes (`FileContents.read`).
    /// `watching`: the file meant to be watched where `watch` could not be made (SIGHUP tries
    /// again; found in review: a watch that failed at start, the kernel's inotify instances used
    /// up by another program, was never taken once they were back).
    public init(source: ConfigSource, watch: ConfigFileWatch?, watching: String? = nil, running: BindingSet? = nil,
                settleTime: Double = 0.1, writingTime: Double = 10, pipeWait: Double = 5) {
        self.source = source
        self.pipeWait = pipeWait
        self.watch = watch
        self.running = running
        self.settleTime = settleTime
        self.writingTime = writingTime
        watchedPath = watch?.path ?? watching
        fileWasThere = watch?.fileExists ?? false
    }

    /// The watch's descriptor, for the event loop's wait.
    public var descriptor: Int32? { watch?.descriptor }

    /// SIGHUP: the file the bridge runs, read again now; running the built-in default, the
    /// user's file if there is one now (its folder may not have existed to be watched). A
    /// watch lost (the kernel's watches used up by another program) is taken again.
    public func hangUp() -> Outcome {
        if watch == nil, let path = watchedPath { watch = try? ConfigFileWatch(path: path) }
        // Read now: a change waiting to be read (an empty file waited out) is read with it.
        nextDeadline = nil
        waitingOutEmpty = false
        switch source {
        case .file: return load(source)
        case .builtInDefault:
            guard case .file(let path) = ConfigSource.resolve(explicit: nil) else { return .unavailable }
            return load(.file(path))
        }
    }

    /// The watch's descriptor is readable: the file changed (it is read once quiet), or its
    /// directory went away (the watch ends).
    public func watchReady(at now: Double) -> Outcome? {
        guard let watch else { return nil }
        let changes = watch.readChanges()
        if changes.contains(.file) { nextDeadline = now + (changes.contains(.writing) ? writingTime : settleTime) }
        guard changes.contains(.watchLost) else { return nil }
        self.watch = nil
        nextDeadline = nil
        let why = watch.lostBecause.map { " (\($0))" } ?? ""
        return .unwatched(path: watch.path, reason: "neither its directory \(watch.directory) nor a folder above it can be watched"
                          + "\(why); SIGHUP watches it again")
    }

    /// The settle time passed since the last change: the file read, or its removal told.
    public func fire(at now: Double) -> Outcome? {
        guard let deadline = nextDeadline, deadline <= now else { return nil }
        nextDeadline = nil
        guard let watch else { return nil }
        let wasThere = fileWasThere
        fileWasThere = watch.fileExists
        guard fileWasThere else {
            running = nil
            waitingOutEmpty = false
            return wasThere ? .fileRemoved(path: watch.path) : nil
        }
        // Empty: read once it has stayed so as long as a writer may leave a file (an empty
        // config is refused all the same, later), or once it changes again.
        let empty = Self.isEmpty(watch.path)
        defer { waitingOutEmpty = empty && !waitingOutEmpty }
        if empty, !waitingOutEmpty {
            nextDeadline = now + writingTime
            return nil
        }
        let (before, beforeSource) = (running, source)
        let outcome = load(.file(watch.path))
        if case .reloaded(let configuration, let file) = outcome, file == beforeSource, configuration == before {
            return nil
        }
        return outcome
    }

    /// Whether the file at `path` holds nothing (a byte, a newline, is something: it is read).
    private static func isEmpty(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_size == 0
    }

    /// How long a reload waits for a pipe's writer's next bytes: read from the event loop, a
    /// pipe whose writer stalls must not hold it for good.
    private let pipeWait: Double

    private func load(_ file: ConfigSource) -> Outcome {
        do {
            let configuration = try file.load(keyNames: XKeysymNames(), pipeWait: pipeWait)
            // A file that appeared where the built-in default ran is now the one SIGHUP reads.
            source = file
            running = configuration
            fileWasThere = watch?.fileExists ?? false
            return .reloaded(configuration, source: file)
        } catch {
            running = nil
            return .rejected(source: file, message: error.description)
        }
    }
}
