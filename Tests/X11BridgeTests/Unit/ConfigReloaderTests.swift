import Foundation
import Glibc
import GestureKit
import Testing
import X11Bridge

/// Reading the config again while the bridge runs, without X: SIGHUP, edits, broken edits,
/// a file created where the built-in default ran, a file or its directory removed. Time is
/// the test's to give: the settle time passes when the test says so.
@Suite("Reloading the config", .serialized)
struct ConfigReloaderTests {
    static let good = "bindings:\n  - {name: one, gesture: deep-press, action: {click: right}}\n"
    static let other = "bindings:\n  - {name: two, gesture: squeeze, action: {key: ctrl+z}}\n"
    static let broken = "bindings:\n  - name: three\n    gesture: deep-pres\n"

    /// The reloader's answer once its watch has seen the file change and `settle` has passed:
    /// what the bridge's loop does, its clock given by the test.
    static func afterChange(_ reloader: ConfigReloader, at now: Double = 10) -> ConfigReloader.Outcome? {
        guard let descriptor = reloader.descriptor else { return nil }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 1000) > 0 else { return nil }
        var outcome = reloader.watchReady(at: now)
        // One save can be a few events apart; each moves the deadline on.
        while outcome == nil, poll(&entry, 1, 100) > 0 { outcome = reloader.watchReady(at: now) }
        if let outcome { return outcome }
        #expect(reloader.fire(at: now + reloader.settleTime / 2) == nil, "read before the file was quiet")
        return reloader.fire(at: now + reloader.settleTime)
    }

    /// A reloader watching `config.yaml` in a folder of its own, the file holding `good`.
    static func watchingGood(_ body: (_ path: String, ConfigReloader) throws -> Void) throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            try good.write(toFile: path, atomically: true, encoding: .utf8)
            try body(path, ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path)))
        }
    }

    /// The file at `path` truncated and written in place with `text`, its writer keeping it open.
    static func writeInPlace(_ path: String, _ text: String) throws -> FileHandle {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        return handle
    }

    static func names(_ outcome: ConfigReloader.Outcome?) -> [String]? {
        guard case .reloaded(let configuration, _)? = outcome else { return nil }
        return configuration.bindings.map(\.name)
    }

    /// Found in review (a long day): an editor's autosave, or a save with nothing edited, read
    /// the file again and told the reload, each device and each missing monitor once more: a
    /// journal filling with the same lines all day.
    @Test("a save that changes nothing is no news; an edit is, a broken one is, and so is the fix that brings back the bindings running before it; SIGHUP always reads")
    func saveWithNothingChanged() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            let running = try ConfigSource.file(path).load(keyNames: XKeysymNames())
            let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path), running: running)
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.afterChange(reloader) == nil, "saved unchanged")
            try Self.writeInPlace(path, "# a comment\n" + Self.good).close()
            #expect(Self.afterChange(reloader, at: 20) == nil, "a comment added")
            #expect(Self.names(reloader.hangUp()) == ["one"], "SIGHUP is asked for")
            try Self.other.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader, at: 30)) == ["two"])
            try Self.broken.write(toFile: path, atomically: true, encoding: .utf8)
            guard case .rejected? = Self.afterChange(reloader, at: 40) else {
                Issue.record("a broken edit is told")
                return
            }
            try Self.other.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader, at: 50)) == ["two"], "the fix is told")
        }
    }

    /// Found in review: a file written in place by a slow writer (a script writing line by
    /// line) was read once it paused, half-written: its first binding, valid alone, replaced
    /// the running ones.
    @Test("a file written in place in two parts, its writer pausing between them: read once its writer closes it, whole")
    func halfWrittenFileWaitsForItsWriter() throws {
        try Self.watchingGood { path, reloader in
            let handle = try Self.writeInPlace(path, "bindings:\n  - {name: first, gesture: deep-press, action: {click: right}}\n")
            #expect(Self.afterChange(reloader) == nil, "read while its writer had it open")
            #expect(reloader.fire(at: 10 + reloader.writingTime / 2) == nil)
            try handle.write(contentsOf: Data("  - {name: second, gesture: squeeze, action: {key: ctrl+z}}\n".utf8))
            try handle.close()
            #expect(Self.names(Self.afterChange(reloader, at: 20)) == ["first", "second"])
        }
    }

    /// Found in review: a watch lost (another program had used up the kernel's watches) was
    /// gone for good: SIGHUP read the file once, and edits after were never noticed.
    /// Found in review of a week of config edits: an editor that truncates the file and closes
    /// it, then writes it anew a while after, had the empty file read between: an error that
    /// the config is empty, then the reload.
    @Test("a file emptied and closed, then written: nothing said of the empty file, the new one read; one left empty is refused once a writer's time has passed")
    func emptiedThenWritten() throws {
        try Self.watchingGood { path, reloader in
            try Self.writeInPlace(path, "").close()
            #expect(Self.afterChange(reloader) == nil, "the empty file is waited out")
            #expect(reloader.nextDeadline.map { abs($0 - (10 + reloader.settleTime + reloader.writingTime)) < 1e-9 } == true)
            try Self.writeInPlace(path, Self.other).close()
            #expect(Self.names(Self.afterChange(reloader, at: 12)) == ["two"])

            try Self.writeInPlace(path, "").close()
            #expect(Self.afterChange(reloader, at: 20) == nil)
            let deadline = try #require(reloader.nextDeadline)
            #expect(reloader.fire(at: deadline - 0.01) == nil)
            guard case .rejected? = reloader.fire(at: deadline) else {
                Issue.record("an empty config is refused once it stays empty")
                return
            }
            // SIGHUP on a file emptied on purpose: refused at once, and not told again later.
            try Self.writeInPlace(path, "").close()
            #expect(Self.afterChange(reloader, at: 40) == nil)
            guard case .rejected = reloader.hangUp() else {
                Issue.record("SIGHUP reads the empty file")
                return
            }
            #expect(reloader.nextDeadline == nil && reloader.fire(at: 60) == nil, "the waited-out read dropped with SIGHUP's")
        }
    }

    @Test("a watch lost is taken again on SIGHUP, and edits after it are noticed")
    func watchLostThenHangUp() throws {
        try ConfigFileWatchTests.inDirectory { root in
            let directory = root + "/config", path = directory + "/config.yaml"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path))
            // Its folder made a file: nothing on the way can be watched.
            try FileManager.default.removeItem(atPath: directory)
            try "not a folder".write(toFile: directory, atomically: false, encoding: .utf8)
            var lost = false
            for _ in 0..<3 where !lost {
                if case .unwatched? = Self.afterChange(reloader) { lost = true }
            }
            #expect(lost && reloader.watch == nil)
            try FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.other.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(reloader.hangUp()) == ["two"])
            #expect(reloader.watch != nil, "watched again")
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader, at: 20)) == ["one"])
        }
    }

    /// Found in review of a machine short of resources: a watch that could not be made at start
    /// (the user's inotify instances used up by another program) was never taken, SIGHUP or not.
    @Test("a watch that could not be made at start is taken on SIGHUP, and edits after it are noticed; with --no-watch none is")
    func watchFailedAtStartThenHangUp() throws {
        try Self.watchingGood { path, _ in
            let reloader = ConfigReloader(source: .file(path), watch: nil, watching: path)
            #expect(reloader.watch == nil)
            try Self.other.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(reloader.hangUp()) == ["two"])
            #expect(reloader.watch != nil, "watched from the SIGHUP on")
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader, at: 20)) == ["one"])
            let unwatched = ConfigReloader(source: .file(path), watch: nil)
            _ = unwatched.hangUp()
            #expect(unwatched.watch == nil, "run --no-watch: SIGHUP reads, and nothing more")
            // The watch taken knows the file is there: its removal, before any edit, is news
            // (found by the review of the day's change).
            let again = ConfigReloader(source: .file(path), watch: nil, watching: path)
            _ = again.hangUp()
            try FileManager.default.removeItem(atPath: path)
            if case .fileRemoved? = Self.afterChange(again, at: 30) {} else { Issue.record("the removal was not told") }
        }
    }

    @Test("a file its writer keeps open is read all the same once it has been left alone a while")
    func fileKeptOpen() throws {
        try Self.watchingGood { path, reloader in
            let handle = try Self.writeInPlace(path, Self.other)
            defer { try? handle.close() }
            #expect(Self.afterChange(reloader) == nil, "read while its writer had it open")
            #expect(Self.names(reloader.fire(at: 10 + reloader.writingTime)) == ["two"])
        }
    }

    @Test("an edit is read once the file is quiet; a broken edit keeps the running bindings and says where; fixing it reads it")
    func editsAndBrokenEdits() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path))

            try Self.other.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader)) == ["two"])

            try Self.broken.write(toFile: path, atomically: false, encoding: .utf8)
            guard case .rejected(_, let message)? = Self.afterChange(reloader) else {
                Issue.record("a broken file was not rejected")
                return
            }
            #expect(message.contains("\(path):3:14:"), "\(message)")

            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader)) == ["one"])
            #expect(Self.names(reloader.hangUp()) == ["one"], "SIGHUP reads the same file")
        }
    }

    @Test("a config made writable by others is refused on reload, the running bindings stay, and fixing the mode reads it")
    func loosenedPermissions() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o644)
            let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path))
            chmod(path, 0o666)
            guard case .rejected(_, let message) = reloader.hangUp() else {
                Issue.record("a file anyone may write was read")
                return
            }
            #expect(message.contains("chmod go-w \(path)"), "\(message)")
            chmod(path, 0o644)
            #expect(Self.names(reloader.hangUp()) == ["one"])
        }
    }

    /// Found in review: a config folder linked in (stow) from a folder the group may write was
    /// refused, advising `chmod go-w` of that folder; done, it was never noticed, and the
    /// config stayed refused until the next edit or SIGHUP.
    @Test("a config refused for the folder holding its folder link is read once that folder's mode is mended, as the refusal advises")
    func linkFolderModeMended() throws {
        try ConfigFileWatchTests.inDirectory { root in
            let config = root + "/config", dotfiles = root + "/dotfiles/gb"
            for folder in [config, dotfiles] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            for folder in [root, root + "/dotfiles", dotfiles] { chmod(folder, 0o755) }
            chmod(config, 0o775)
            try Self.good.write(toFile: dotfiles + "/config.yaml", atomically: false, encoding: .utf8)
            chmod(dotfiles + "/config.yaml", 0o644)
            #expect(symlink(dotfiles, config + "/gesture-bridge") == 0)
            let path = config + "/gesture-bridge/config.yaml"
            let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path))
            guard case .rejected(_, let message) = reloader.hangUp() else {
                Issue.record("a link in a folder the group may write was trusted")
                return
            }
            #expect(message.contains("fix it with `chmod go-w \(config)`"), "\(message)")
            #expect(chmod(config, 0o755) == 0)
            #expect(Self.names(Self.afterChange(reloader)) == ["one"], "mended as the refusal said, the config loads")
        }
    }

    /// Found in review: a file made was read a tenth of a second later, empty, while its writer
    /// (`cat > config.yaml` over ssh, `curl -o`) had it open: a spurious "the config is empty"
    /// before the real reload.
    @Test("a file made while the built-in default runs, written a while after: read once its writer closes it, not empty before; one made by `ln` is read at once")
    func madeFileWaitsForItsWriter() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            let reloader = ConfigReloader(source: .builtInDefault, watch: try ConfigFileWatch(path: path))
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(descriptor >= 0)
            let early = Self.afterChange(reloader)
            #expect(early == nil, "read before its writer wrote: \(String(describing: early))")
            #expect(reloader.fire(at: 10 + reloader.writingTime / 2) == nil)
            let bytes = Array(Self.other.utf8)
            #expect(write(descriptor, bytes, bytes.count) == bytes.count)
            #expect(close(descriptor) == 0)
            #expect(Self.names(Self.afterChange(reloader, at: 20)) == ["two"])

            // A hard link has no writer to wait for.
            try Self.good.write(toFile: directory + "/spare.yaml", atomically: false, encoding: .utf8)
            #expect(chmod(directory + "/spare.yaml", 0o644) == 0)
            #expect(unlink(path) == 0)
            _ = Self.afterChange(reloader, at: 30)
            #expect(link(directory + "/spare.yaml", path) == 0)
            #expect(Self.names(Self.afterChange(reloader, at: 40)) == ["one"])
        }
    }

    /// Found in review: the writer's own `fchmod` before it finished, read apart from its
    /// writes, took the file as closed: half of it loaded, and bindings vanished for a moment.
    @Test("a file written in place whose mode its writer changes before it finishes: still read only once its writer closes it")
    func modeChangedMidWrite() throws {
        try Self.watchingGood { path, reloader in
            let handle = try Self.writeInPlace(path, "bindings:\n  - {name: first, gesture: deep-press, action: {click: right}}\n")
            #expect(Self.afterChange(reloader) == nil, "read while its writer had it open")
            #expect(fchmod(handle.fileDescriptor, 0o600) == 0)
            let outcome = Self.afterChange(reloader, at: 12)
            #expect(Self.names(outcome) == nil, "read half-written: \(String(describing: outcome))")
            #expect(reloader.fire(at: 12 + reloader.writingTime / 2) == nil)
            try handle.write(contentsOf: Data("  - {name: second, gesture: squeeze, action: {key: ctrl+z}}\n".utf8))
            try handle.close()
            #expect(Self.names(Self.afterChange(reloader, at: 30)) == ["first", "second"])
        }
    }

    @Test("running the built-in default: SIGHUP has nothing to read until the user's file is created, then reads it")
    func builtInDefaultThenCreated() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            let reloader = ConfigReloader(source: .builtInDefault, watch: try ConfigFileWatch(path: path))
            guard case .unavailable = reloader.hangUp() else {
                Issue.record("SIGHUP found something to read")
                return
            }
            try Self.other.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(Self.names(Self.afterChange(reloader)) == ["two"])
            #expect(reloader.source == .file(path))
            #expect(Self.names(reloader.hangUp()) == ["two"])
        }
    }

    @Test("the file removed: said once, the bindings stay, also when its folder goes after it; the folder made again with a file: read")
    func removals() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.yaml"
        try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
        let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path))

        try FileManager.default.removeItem(atPath: path)
        guard case .fileRemoved(let removed)? = Self.afterChange(reloader) else {
            Issue.record("the removal was not told")
            return
        }
        #expect(removed == path)

        try FileManager.default.removeItem(atPath: directory)
        #expect(Self.afterChange(reloader) == nil, "the removal is told once")
        #expect(reloader.descriptor != nil, "still watching, from the folder above")

        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
        var outcome = Self.afterChange(reloader)
        if outcome == nil { outcome = Self.afterChange(reloader) }
        guard case .reloaded(_, let source)? = outcome else {
            Issue.record("the file in the folder made again was not read: \(String(describing: outcome))")
            return
        }
        #expect(source == .file(path))
    }

    @Test("no watch: nothing to wait for, and SIGHUP still reads the file")
    func noWatch() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            try Self.good.write(toFile: path, atomically: true, encoding: .utf8)
            let reloader = ConfigReloader(source: .file(path), watch: nil)
            #expect(reloader.descriptor == nil && reloader.nextDeadline == nil)
            #expect(Self.names(reloader.hangUp()) == ["one"])
        }
    }

    /// Found in review of the bridge's security: a config that is a named pipe, held open by a
    /// writer that writes nothing, kept a reload reading it for good, the event loop with it.
    @Test("SIGHUP with the config a named pipe whose writer writes nothing: rejected after the wait, the bindings running kept")
    func silentPipe() throws {
        try ConfigFileWatchTests.inDirectory { directory in
            let path = directory + "/config.yaml"
            #expect(mkfifo(path, 0o600) == 0)
            let writer = open(path, O_RDWR | O_CLOEXEC)
            defer { close(writer) }
            let reloader = ConfigReloader(source: .file(path), watch: try ConfigFileWatch(path: path), pipeWait: 0.3)
            let started = Date()
            guard case .rejected(_, let message) = reloader.hangUp() else {
                Issue.record("a silent pipe was not refused")
                return
            }
            #expect(message.contains("writes nothing"), "\(message)")
            #expect(Date().timeIntervalSince(started) < 3, "given up after its wait")
        }
    }
}
