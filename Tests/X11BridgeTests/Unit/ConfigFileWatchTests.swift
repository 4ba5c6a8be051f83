import Foundation
import Glibc
import Testing
@testable import X11Bridge

@Suite("Noticing changes to the config file", .serialized)
struct ConfigFileWatchTests {
    /// A fresh directory, removed when `body` returns.
    static func inDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    /// What an open descriptor of this process refers to; nil when it is closed.
    static func descriptorKind(_ descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    /// What the watch reports for one burst of file activity, or nothing after `timeout`: the
    /// events of one write (a modification, then the close) can arrive apart, so it reads
    /// until 100 ms pass quietly.
    /// What the events tell, once they stop coming for a tenth of a second. `writerClosed`: the
    /// test's writer has closed the file, so its close is among the events to come, however
    /// slowly a loaded machine delivers them (a full run in CI read a write's events without
    /// its close, a tenth of a second behind): read until the file reads as closed, or a second.
    static func changes(_ watch: ConfigFileWatch, timeout: Int32 = 1000, writerClosed: Bool = true) -> Set<ConfigFileWatch.Change> {
        var entry = pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, timeout) > 0 else { return [] }
        var changes = watch.readChanges()
        // Whether the file reads as open for writing, as the latest read that told of it says.
        var writing = changes.contains(.writing)
        let deadline = Date().addingTimeInterval(1)
        while poll(&entry, 1, 100) > 0 || (writerClosed && writing && Date() < deadline) {
            let more = watch.readChanges()
            changes.formUnion(more)
            if more.contains(.file) { writing = more.contains(.writing) }
        }
        if !writing { changes.remove(.writing) }
        return changes
    }

    /// `config.yaml` written with `text` in `folder`, made with the folders above it, and a
    /// watch on it.
    static func watchedFile(_ folder: String, _ text: String) throws -> (path: String, watch: ConfigFileWatch) {
        let path = folder + "/config.yaml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return (path, try ConfigFileWatch(path: path))
    }

    @Test("writing the file in place, replacing it by a rename, creating and removing it are all noticed")
    func fileChanges() throws {
        try Self.inDirectory { directory in
            let path = directory + "/config.yaml"
            let watch = try ConfigFileWatch(path: path)
            #expect(!watch.fileExists)

            #expect(FileManager.default.createFile(atPath: path, contents: Data("a".utf8)))
            #expect(Self.changes(watch) == [.file])
            #expect(watch.fileExists)

            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data("b".utf8))
            try handle.close()
            #expect(Self.changes(watch) == [.file])

            try "c".write(toFile: directory + "/.config.yaml.swp", atomically: false, encoding: .utf8)
            #expect(rename(directory + "/.config.yaml.swp", path) == 0)
            #expect(Self.changes(watch) == [.file])

            #expect(unlink(path) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(!watch.fileExists)
        }
    }

    @Test("other files in the directory are not the config's business")
    func otherFiles() throws {
        try Self.inDirectory { directory in
            let watch = try ConfigFileWatch(path: directory + "/config.yaml")
            try "x".write(toFile: directory + "/config.yaml.bak", atomically: true, encoding: .utf8)
            try "x".write(toFile: directory + "/notes.txt", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty)
        }
    }

    /// `directory` (with the folders above it) made, the config written in it: the watch sees
    /// each step, watches the directory from then on, and sees the file's next edit.
    static func expectFollowed(_ watch: ConfigFileWatch, into directory: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "made".write(toFile: watch.path, atomically: false, encoding: .utf8)
        // The folders and the file come one after the other: each step is seen.
        for _ in 0..<3 where !watch.fileExists || !watch.watchesDirectory { _ = changes(watch) }
        #expect(watch.watchesDirectory && watch.fileExists, sourceLocation: sourceLocation)
        try "edited".write(toFile: watch.path, atomically: false, encoding: .utf8)
        #expect(changes(watch) == [.file], sourceLocation: sourceLocation)
    }

    /// Found in review: removing the folder ended the watch for good.
    @Test("the directory removed and made again: the removal and the new file are noticed, and its edits")
    func directoryRemovedAndMadeAgain() throws {
        try Self.inDirectory { root in
            let directory = root + "/gesture-bridge"
            let watch = try Self.watchedFile(directory, "a").watch
            try FileManager.default.removeItem(atPath: directory)
            #expect(Self.changes(watch) == [.file])
            #expect(!watch.watchesDirectory && !watch.fileExists)
            // Files coming and going beside it (a home folder's) are no news.
            try "x".write(toFile: root + "/history", atomically: true, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty)

            try Self.expectFollowed(watch, into: directory)
        }
    }

    @Test("a directory moved away: the file left behind it is gone, and the one written where it was is noticed")
    func directoryMovedAway() throws {
        try Self.inDirectory { root in
            let directory = root + "/gesture-bridge"
            let watch = try Self.watchedFile(directory, "a").watch
            #expect(rename(directory, root + "/old") == 0)
            #expect(Self.changes(watch) == [.file])
            try "x".write(toFile: root + "/old/config.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty, "the folder moved away is no longer the config's")
            try Self.expectFollowed(watch, into: directory)
        }
    }

    /// Found in review: with no config folder at start (a fresh install), nothing watched for
    /// it, so `calibrate --write`, which makes it, did not reach a running bridge.
    @Test("a config folder not made yet, two levels down: made with its parent and the file written, it is noticed")
    func directoryMadeLater() throws {
        try Self.inDirectory { root in
            let directory = root + "/config/gesture-bridge", path = directory + "/config.yaml"
            let watch = try ConfigFileWatch(path: path)
            #expect(!watch.watchesDirectory)
            try "x".write(toFile: root + "/notes", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty)
            try Self.expectFollowed(watch, into: directory)
        }
    }

    /// Found in review: a folder link's target was watched as found at start, so edits after
    /// the link was pointed at another folder went unnoticed.
    @Test("a config folder that is a link (a dotfiles folder linked in), pointed at another folder: the new folder's file is the config")
    func folderLinkRepointed() throws {
        try Self.inDirectory { root in
            for name in ["laptop", "desktop", "config"] {
                try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
                try name.write(toFile: root + "/\(name)/config.yaml", atomically: false, encoding: .utf8)
            }
            let link = root + "/config/gesture-bridge"
            #expect(symlink(root + "/laptop", link) == 0)
            let watch = try ConfigFileWatch(path: link + "/config.yaml")
            try "b".write(toFile: root + "/laptop/config.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])

            // As `ln -sfn` points it: a new link made, then renamed over the old one.
            #expect(symlink(root + "/desktop", root + "/config/.new") == 0)
            #expect(rename(root + "/config/.new", link) == 0)
            #expect(Self.changes(watch) == [.file])
            try "c".write(toFile: root + "/desktop/config.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
            try "c".write(toFile: root + "/laptop/config.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty, "the old folder is no longer the config's")
        }
    }

    @Test("a config that is a symbolic link: editing the file it points to is noticed, and the link is followed when re-pointed")
    func symbolicLink() throws {
        try Self.inDirectory { root in
            for name in ["config", "dotfiles", "other"] {
                try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            }
            let path = root + "/config/config.yaml"
            try "a".write(toFile: root + "/dotfiles/gesture.yaml", atomically: false, encoding: .utf8)
            try "a".write(toFile: root + "/other/gesture.yaml", atomically: false, encoding: .utf8)
            #expect(symlink(root + "/dotfiles/gesture.yaml", path) == 0)
            let watch = try ConfigFileWatch(path: path)
            #expect(watch.linkTarget?.hasSuffix("/dotfiles/gesture.yaml") == true)

            try "b".write(toFile: root + "/dotfiles/gesture.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
            try "b".write(toFile: root + "/dotfiles/unrelated.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty)

            // Pointed elsewhere the way `ln -sf` does it: a new link renamed over the old one.
            #expect(symlink(root + "/other/gesture.yaml", root + "/config/.new-link") == 0)
            #expect(rename(root + "/config/.new-link", path) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(watch.linkTarget?.hasSuffix("/other/gesture.yaml") == true)
            try "c".write(toFile: root + "/other/gesture.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
            try "c".write(toFile: root + "/dotfiles/gesture.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty, "the old target is no longer the config")
        }
    }

    /// Found in review: a link pointed into a folder not made yet inside its old target's
    /// folder lost the watch it needed there.
    @Test("a link pointed into a folder that does not exist yet beside its old file: the folder and the file, made, are noticed")
    func linkIntoMissingSubfolder() throws {
        try Self.inDirectory { root in
            let watch = try Self.linkedConfig(in: root, to: "dotfiles/gesture.yaml")
            #expect(unlink(root + "/config/config.yaml") == 0)
            #expect(symlink(root + "/dotfiles/sub/gesture.yaml", root + "/config/config.yaml") == 0)
            #expect(Self.changes(watch).contains(.file))
            try FileManager.default.createDirectory(atPath: root + "/dotfiles/sub", withIntermediateDirectories: false)
            #expect(Self.changes(watch).contains(.file))
            #expect(watch.linkTarget?.hasSuffix("/dotfiles/sub/gesture.yaml") == true)
            try "b".write(toFile: root + "/dotfiles/sub/gesture.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
        }
    }

    /// `config/config.yaml` in `root`, a link to `target` (a path in `root`, written by
    /// `dotfiles`), watched.
    static func linkedConfig(in root: String, to target: String) throws -> ConfigFileWatch {
        let path = try dotfiles(in: root, target: target)
        #expect(symlink(path, root + "/config/config.yaml") == 0)
        return try ConfigFileWatch(path: root + "/config/config.yaml")
    }

    /// A config folder and a dotfiles file in `root`: `config/` made, and `target` (a path in
    /// `root`) written with its folders; its full path.
    static func dotfiles(in root: String, target: String) throws -> String {
        let path = root + "/" + target
        for directory in [root + "/config", String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try "a".write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("a link whose file is removed and written anew, as a dotfiles checkout does: the new file's edits are noticed")
    func linkTargetRewritten() throws {
        try Self.inDirectory { root in
            let target = try Self.dotfiles(in: root, target: "dotfiles/gesture.yaml")
            // Relative, and through a second link, as dotfiles managers make them.
            #expect(symlink("../dotfiles/gesture.yaml", root + "/config/hop.yaml") == 0)
            #expect(symlink("hop.yaml", root + "/config/config.yaml") == 0)
            let watch = try ConfigFileWatch(path: root + "/config/config.yaml")
            #expect(watch.linkTarget?.hasSuffix("/dotfiles/gesture.yaml") == true)

            #expect(unlink(target) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(!watch.fileExists)
            #expect(watch.linkTarget?.hasSuffix("/dotfiles/gesture.yaml") == true, "a broken link still leads there")

            try "b".write(toFile: target, atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
            #expect(watch.fileExists)
            try "c".write(toFile: target, atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
        }
    }

    /// Found in review: with the dotfiles folder removed and cloned again, nothing watched the
    /// new folder, and every later edit went unnoticed until SIGHUP.
    @Test("a link whose folder is removed and made again (a dotfiles clone): the new file and its edits are noticed")
    func linkDirectoryRecreated() throws {
        try Self.inDirectory { root in
            let watch = try Self.linkedConfig(in: root, to: "dotfiles/bridge/gesture.yaml")
            let target = root + "/dotfiles/bridge/gesture.yaml"
            try FileManager.default.removeItem(atPath: root + "/dotfiles")
            #expect(Self.changes(watch).contains(.file))
            #expect(!watch.fileExists)
            // Files coming and going in the folder above (a home folder's) are no news.
            try "x".write(toFile: root + "/history", atomically: true, encoding: .utf8)
            #expect(rename(root + "/history", root + "/history.old") == 0)
            #expect(Self.changes(watch, timeout: 200).isEmpty)

            try FileManager.default.createDirectory(atPath: root + "/dotfiles/bridge", withIntermediateDirectories: true)
            try "b".write(toFile: target, atomically: false, encoding: .utf8)
            // The folders and the file come one after the other: each step is seen.
            for _ in 0..<3 where watch.linkTarget == nil { _ = Self.changes(watch) }
            #expect(watch.linkTarget?.hasSuffix("/dotfiles/bridge/gesture.yaml") == true)
            #expect(watch.fileExists)
            try "c".write(toFile: target, atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
        }
    }

    /// A checkout racing the watch: `file` and its folder removed, and `waitIn`, the folder the
    /// watch then chooses to wait in, removed as it is about to be watched (checked: the
    /// stimulus); then both made again, which the watch is checked to notice. Returns what it
    /// reported of the removal.
    static func raceCheckout(_ watch: ConfigFileWatch, file: String, waitIn: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<ConfigFileWatch.Change> {
        var removed: [String] = []
        watch.willWatch = { folder in
            // The first folder chosen to wait in goes, as the checkout takes it.
            if folder == waitIn, removed.isEmpty, rmdir(folder) == 0 { removed.append(folder) }
        }
        let folder = (file as NSString).deletingLastPathComponent
        unlink(file)
        rmdir(folder)
        let changes = Self.changes(watch)
        #expect(removed == [waitIn], "the stimulus: the folder went between the look and the watch", sourceLocation: sourceLocation)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "bindings: []\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(Self.changes(watch).contains(.file) && watch.fileExists, sourceLocation: sourceLocation)
        return changes
    }

    /// Found in review of a week of config edits: a dotfiles checkout switched to a branch
    /// without the config removes its emptied folders one by one, and a folder the watch had
    /// chosen to wait in went between its look and its watch: the watch ended for good ("the
    /// system's watches used up", it said), and the checkout back was never noticed.
    @Test("the folder the watch waits in removed between its look and its watch: it waits in the one above, and the file written again is noticed")
    func waypointRemovedBeforeItsWatch() throws {
        try Self.inDirectory { root in
            let (path, watch) = try Self.watchedFile(root + "/a/b", "bindings: []\n")
            let changes = try Self.raceCheckout(watch, file: path, waitIn: root + "/a")
            #expect(changes.contains(.file) && !changes.contains(.watchLost), "\(changes): \(String(describing: watch.lostBecause))")
        }
    }

    /// Found in review of that fix: a config that is a link into a dotfiles checkout had the
    /// same race on the folders the link leads through, and there a folder gone before its
    /// watch went unsaid: nothing waited for the file to come back.
    @Test("a link's target folder removed between its look and its watch: the file written again is noticed")
    func linkTargetWaypointRemovedBeforeItsWatch() throws {
        try Self.inDirectory { root in
            let (target, _) = try Self.watchedFile(root + "/dots/a/b", "bindings: []\n")
            try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: root + "/config/config.yaml", withDestinationPath: target)
            let watch = try ConfigFileWatch(path: root + "/config/config.yaml")
            #expect(!(try Self.raceCheckout(watch, file: target, waitIn: root + "/dots/a")).contains(.watchLost))
        }
    }

    @Test("a change of the file's or its directory's mode is noticed: `chmod go-w`, as a refused config is told, loads it")
    func modeChanges() throws {
        try Self.inDirectory { directory in
            let (path, watch) = try Self.watchedFile(directory, "a")
            #expect(chmod(path, 0o664) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(chmod(path, 0o644) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(chmod(directory, 0o775) == 0)
            #expect(Self.changes(watch) == [.file])
            try "x".write(toFile: directory + "/notes.txt", atomically: false, encoding: .utf8)
            _ = Self.changes(watch, timeout: 200)
            #expect(chmod(directory + "/notes.txt", 0o600) == 0)
            #expect(Self.changes(watch, timeout: 200).isEmpty, "another file's mode is not the config's business")
        }
    }

    /// Found in review: the trust examines the folders holding links on the way, and a refusal
    /// says `chmod go-w` of one, but they were watched only for the link made or renamed, and
    /// the mode mended was never noticed.
    @Test("a change of mode of the folder holding a link on the way (a folder link, a second link in a chain) is noticed, not of a file beside the link",
          arguments: ["folder link", "second link"])
    func linkFolderModeChanges(link: String) throws {
        try Self.inDirectory { root in
            for name in ["config", "dotfiles/gb", "links"] {
                try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            }
            try "a".write(toFile: root + "/dotfiles/gb/config.yaml", atomically: false, encoding: .utf8)
            let holder: String, path: String
            if link == "folder link" {
                // stow's fold: the config folder a link into the dotfiles.
                holder = root + "/config"
                path = holder + "/gesture-bridge/config.yaml"
                #expect(symlink(root + "/dotfiles/gb", holder + "/gesture-bridge") == 0)
            } else {
                // config.yaml -> links/current.yaml -> dotfiles/gb/config.yaml: a profile link.
                holder = root + "/links"
                path = root + "/config/config.yaml"
                #expect(symlink(root + "/dotfiles/gb/config.yaml", holder + "/current.yaml") == 0)
                #expect(symlink(holder + "/current.yaml", path) == 0)
            }
            try "x".write(toFile: holder + "/notes.txt", atomically: false, encoding: .utf8)
            let watch = try ConfigFileWatch(path: path)
            #expect(chmod(holder, 0o775) == 0)
            #expect(Self.changes(watch) == [.file], "the folder made writable by the group")
            #expect(chmod(holder, 0o755) == 0)
            #expect(Self.changes(watch) == [.file], "`chmod go-w` of the folder, as a refusal advises")
            #expect(chmod(holder + "/notes.txt", 0o600) == 0)
            #expect(Self.changes(watch, timeout: 200).isEmpty, "another file's mode is not the config's business")
        }
    }

    /// Found in review: a file made was taken as closed at once, and read empty while its
    /// writer (`cat > config.yaml` over ssh, `curl -o`) had yet to write it.
    @Test("a file made by opening it is open for writing until its writer closes it, written or not; one made as a link (ln, ln -s) is not")
    func madeFileOpenUntilClosed() throws {
        try Self.inDirectory { directory in
            let path = directory + "/config.yaml"
            let watch = try ConfigFileWatch(path: path)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(descriptor >= 0)
            #expect(Self.changes(watch, writerClosed: false) == [.file, .writing], "made, nothing written yet")
            #expect(write(descriptor, "a", 1) == 1)
            #expect(Self.changes(watch, writerClosed: false) == [.file, .writing])
            #expect(close(descriptor) == 0)
            #expect(Self.changes(watch) == [.file])

            #expect(unlink(path) == 0)
            #expect(Self.changes(watch) == [.file])
            try "b".write(toFile: directory + "/spare.yaml", atomically: false, encoding: .utf8)
            _ = Self.changes(watch, timeout: 200)
            #expect(link(directory + "/spare.yaml", path) == 0)
            #expect(Self.changes(watch) == [.file], "a second name for a written file has no writer")
            #expect(unlink(path) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(symlink("spare.yaml", path) == 0)
            #expect(Self.changes(watch) == [.file], "a link made has no writer")
        }
    }

    /// Found in review: whether the file was open for writing was worked out afresh for each
    /// read of the descriptor, so a read holding only the writer's own change of mode took it
    /// as closed.
    @Test("a file still open for writing stays so across reads, through a change of its mode, until its writer closes it")
    func writingKeptAcrossReads() throws {
        try Self.inDirectory { directory in
            let (path, watch) = try Self.watchedFile(directory, "a")
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data("b".utf8))
            #expect(Self.changes(watch, writerClosed: false) == [.file, .writing])
            #expect(fchmod(handle.fileDescriptor, 0o600) == 0)
            #expect(Self.changes(watch, writerClosed: false) == [.file, .writing], "the writer's own fchmod")
            try handle.close()
            #expect(Self.changes(watch) == [.file])
            #expect(chmod(path, 0o644) == 0)
            #expect(Self.changes(watch) == [.file], "closed, a change of mode is only that")
        }
    }

    @Test("links that lead round in a circle are no target")
    func linkLoop() throws {
        try Self.inDirectory { directory in
            #expect(symlink("b.yaml", directory + "/a.yaml") == 0)
            #expect(symlink("a.yaml", directory + "/b.yaml") == 0)
            let watch = try ConfigFileWatch(path: directory + "/a.yaml")
            #expect(watch.linkTarget == nil)
            #expect(!watch.fileExists)
        }
    }

    @Test("a link to a file beside it in the same directory")
    func linkInSameDirectory() throws {
        try Self.inDirectory { directory in
            try "a".write(toFile: directory + "/laptop.yaml", atomically: false, encoding: .utf8)
            #expect(symlink("laptop.yaml", directory + "/config.yaml") == 0)
            let watch = try ConfigFileWatch(path: directory + "/config.yaml")
            try "b".write(toFile: directory + "/laptop.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
            try "b".write(toFile: directory + "/desktop.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 200).isEmpty)
        }
    }

    @Test("a folder on the way that is a file is an error naming the config and that folder")
    func folderIsAFile() throws {
        try Self.inDirectory { root in
            try "x".write(toFile: root + "/file", atomically: false, encoding: .utf8)
            do throws(ConfigWatchError) {
                _ = try ConfigFileWatch(path: root + "/file/gesture-bridge/config.yaml")
                Issue.record("watching under a file succeeded")
            } catch {
                #expect(error.description.hasPrefix("cannot watch \(root)/file/gesture-bridge/config.yaml for changes: cannot watch \(root)/file, above the missing directory \(root)/file/gesture-bridge: "))
            }
        }
    }

    @Test("a relative path is watched in the current directory")
    func relativePath() throws {
        let watch = try ConfigFileWatch(path: "config.yaml")
        #expect(watch.directory == ".")
        #expect(watch.fileName == "config.yaml")
    }

    @Test("its descriptor is closed with it, and not inherited by programs the bridge starts")
    func descriptorLifetime() throws {
        try Self.inDirectory { directory in
            var watch: ConfigFileWatch? = try ConfigFileWatch(path: directory + "/config.yaml")
            let descriptor = try #require(watch?.descriptor)
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0)
            #expect(Self.descriptorKind(descriptor) == "anon_inode:inotify")
            watch = nil
            // Other tests may open a descriptor with the same number at once; it is not an
            // inotify one (this suite runs its tests one at a time).
            #expect(Self.descriptorKind(descriptor) != "anon_inode:inotify")
        }
    }
}

/// Found reviewing the watch that follows the path: a dotfiles folder removed and cloned again
/// as `rm -rf` and `git clone` do it, in steps the bridge may wake between, through links.
extension ConfigFileWatchTests {
    /// What the watch reports over three bursts of activity: folders and a file made one
    /// after the other.
    static func changesInSteps(_ watch: ConfigFileWatch) -> Set<ConfigFileWatch.Change> {
        var seen: Set<ConfigFileWatch.Change> = []
        for _ in 0..<3 { seen.formUnion(changes(watch, timeout: 300)) }
        return seen
    }

    /// The folders of `path` made again and the file written, as a clone or a restore does;
    /// what the watch reports over it (`changesInSteps`).
    static func remade(_ path: String, watch: ConfigFileWatch) throws -> Set<ConfigFileWatch.Change> {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "b".write(toFile: path, atomically: false, encoding: .utf8)
        return changesInSteps(watch)
    }

    @Test("a config folder link whose target folder is removed and cloned again: the new file is noticed")
    func folderLinkTargetRecreated() throws {
        try Self.inDirectory { root in
            try FileManager.default.createDirectory(atPath: root + "/dotfiles/bridge", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
            try "a".write(toFile: root + "/dotfiles/bridge/config.yaml", atomically: false, encoding: .utf8)
            #expect(symlink(root + "/dotfiles/bridge", root + "/config/gesture-bridge") == 0)
            let watch = try ConfigFileWatch(path: root + "/config/gesture-bridge/config.yaml")
            try FileManager.default.removeItem(atPath: root + "/dotfiles")
            #expect(Self.changes(watch).contains(.file))
            #expect(!watch.watchesDirectory)
            let seen = try Self.remade(root + "/dotfiles/bridge/config.yaml", watch: watch)
            #expect(seen.contains(.file), "the re-made folder's file")
            #expect(watch.watchesDirectory)
        }
    }

    /// Found in review: a folder above the watched one moved gives no event in it; the watch
    /// stayed on the folder moved aside, and the new copy's edits were never noticed.
    @Test("a folder above the config's moved aside and made again (a dotfiles checkout cloned anew, ~/.config restored), with and without a folder link: the new file's edits are noticed",
          arguments: [true, false])
    func folderAboveMovedAside(linked: Bool) throws {
        try Self.inDirectory { root in
            let moved = linked ? root + "/dotfiles" : root + "/config"
            let real = linked ? root + "/dotfiles/bridge/config.yaml" : root + "/config/gesture-bridge/config.yaml"
            try FileManager.default.createDirectory(atPath: (real as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
            try "a".write(toFile: real, atomically: false, encoding: .utf8)
            if linked { #expect(symlink(root + "/dotfiles/bridge", root + "/config/gesture-bridge") == 0) }
            let watch = try ConfigFileWatch(path: root + "/config/gesture-bridge/config.yaml")
            #expect(rename(moved, moved + ".old") == 0)
            #expect(Self.changes(watch).contains(.file), "the folder moved aside")
            let seen = try Self.remade(real, watch: watch)
            #expect(seen.contains(.file), "the new copy's file")
            try "c".write(toFile: real, atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file], "an edit of the new copy")
            try "d".write(toFile: moved + ".old/" + (linked ? "bridge" : "gesture-bridge") + "/config.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch, timeout: 300).isEmpty, "the old copy is no longer the config")
        }
    }

    /// Found in review: watched for their entries, the folders above woke the bridge for every
    /// file made in a home folder (a shell's history lock at each command).
    @Test("files coming and going in the folders above the config's wake nothing")
    func unrelatedFilesAboveWakeNothing() throws {
        try Self.inDirectory { root in
            let watch = try Self.watchedFile(root + "/dotfiles/bridge", "a").watch
            try "lock".write(toFile: root + "/.history.LOCK", atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(atPath: root + "/.history.LOCK")
            try "x".write(toFile: root + "/dotfiles/notes.txt", atomically: true, encoding: .utf8)
            var entry = pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0)
            #expect(poll(&entry, 1, 300) == 0, "woken for files that are not the config")
        }
    }

    /// Found in review: a link further along the chain, pointed elsewhere, changed the file
    /// with no event the watch listened to.
    @Test("a config link to a second link (a profile switch), the second pointed elsewhere: noticed, and the new profile's edits too")
    func secondLinkInChainRepointed() throws {
        try Self.inDirectory { directory in
            try "a".write(toFile: directory + "/laptop.yaml", atomically: false, encoding: .utf8)
            try "a".write(toFile: directory + "/desktop.yaml", atomically: false, encoding: .utf8)
            #expect(symlink("laptop.yaml", directory + "/current.yaml") == 0)
            #expect(symlink("current.yaml", directory + "/config.yaml") == 0)
            let watch = try ConfigFileWatch(path: directory + "/config.yaml")
            #expect(symlink("desktop.yaml", directory + "/.new") == 0)
            #expect(rename(directory + "/.new", directory + "/current.yaml") == 0)
            #expect(Self.changes(watch) == [.file], "the second link pointed elsewhere")
            try "b".write(toFile: directory + "/desktop.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file], "the new profile's edit")
        }
    }

    @Test("a config link into a dotfiles folder that is itself a link, pointed elsewhere: noticed, and the new file's edits too")
    func dotfilesLinkRepointed() throws {
        try Self.inDirectory { root in
            for machine in ["laptop", "desktop"] {
                try FileManager.default.createDirectory(atPath: root + "/src/\(machine)/gb", withIntermediateDirectories: true)
                try machine.write(toFile: root + "/src/\(machine)/gb/config.yaml", atomically: false, encoding: .utf8)
            }
            #expect(symlink(root + "/src/laptop", root + "/dotfiles") == 0)
            try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
            #expect(symlink(root + "/dotfiles/gb/config.yaml", root + "/config/config.yaml") == 0)
            let watch = try ConfigFileWatch(path: root + "/config/config.yaml")
            #expect(symlink(root + "/src/desktop", root + "/.new") == 0)
            #expect(rename(root + "/.new", root + "/dotfiles") == 0)
            #expect(Self.changes(watch).contains(.file), "the dotfiles link pointed elsewhere")
            try "edited".write(toFile: root + "/src/desktop/gb/config.yaml", atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file], "the new file's edit")
        }
    }

    @Test("a waypoint folder removed in turn (rm -rf read mid-way), then made again: the new file is noticed")
    func waypointRemoved() throws {
        try Self.inDirectory { root in
            let directory = root + "/dotfiles/bridge"
            let (path, watch) = try Self.watchedFile(directory, "a")
            try FileManager.default.removeItem(atPath: directory)
            #expect(Self.changes(watch).contains(.file))     // read between the two steps of rm -rf
            try FileManager.default.removeItem(atPath: root + "/dotfiles")
            _ = Self.changes(watch, timeout: 300)
            let seen = try Self.remade(path, watch: watch)
            #expect(seen.contains(.file), "the re-made folder's file")
            #expect(watch.watchesDirectory)
        }
    }
    @Test("a link's target folder removed after its file was: the folder and file made again are noticed")
    func targetFolderRemovedAfterFile() throws {
        try Self.inDirectory { root in
            let watch = try Self.linkedConfig(in: root, to: "dotfiles/bridge/gesture.yaml")
            let target = root + "/dotfiles/bridge/gesture.yaml"
            #expect(unlink(target) == 0)
            #expect(Self.changes(watch) == [.file])
            #expect(rmdir(root + "/dotfiles/bridge") == 0)
            _ = Self.changes(watch, timeout: 300)
            let seen = try Self.remade(target, watch: watch)
            #expect(seen.contains(.file))
        }
    }

    @Test("~/.config itself a link into dotfiles, dotfiles cloned again")
    func intermediateLink() throws {
        try Self.inDirectory { root in
            try FileManager.default.createDirectory(atPath: root + "/dotfiles/config/gesture-bridge", withIntermediateDirectories: true)
            try "a".write(toFile: root + "/dotfiles/config/gesture-bridge/config.yaml", atomically: false, encoding: .utf8)
            #expect(symlink(root + "/dotfiles/config", root + "/.config") == 0)
            let watch = try ConfigFileWatch(path: root + "/.config/gesture-bridge/config.yaml")
            try FileManager.default.removeItem(atPath: root + "/dotfiles")
            #expect(Self.changes(watch).contains(.file))
            let seen = try Self.remade(root + "/dotfiles/config/gesture-bridge/config.yaml", watch: watch)
            #expect(seen.contains(.file))
        }
    }
    @Test("a dotfiles clone removed as rm -rf does (its folder first, the clone after, read between), then cloned again")
    func linkDirectoryRecreatedMidRemoval() throws {
        try Self.inDirectory { root in
            let watch = try Self.linkedConfig(in: root, to: "dotfiles/bridge/gesture.yaml")
            let target = root + "/dotfiles/bridge/gesture.yaml"
            try FileManager.default.removeItem(atPath: root + "/dotfiles/bridge")
            #expect(Self.changes(watch).contains(.file))        // the bridge woke while rm -rf went on
            try FileManager.default.removeItem(atPath: root + "/dotfiles")
            _ = Self.changes(watch, timeout: 300)
            try FileManager.default.createDirectory(atPath: root + "/dotfiles/bridge", withIntermediateDirectories: true)
            try "b".write(toFile: target, atomically: false, encoding: .utf8)
            for _ in 0..<3 where watch.linkTarget == nil { _ = Self.changes(watch, timeout: 300) }
            #expect(watch.linkTarget?.hasSuffix("/dotfiles/bridge/gesture.yaml") == true)
            try "c".write(toFile: target, atomically: false, encoding: .utf8)
            #expect(Self.changes(watch) == [.file])
        }
    }
}
