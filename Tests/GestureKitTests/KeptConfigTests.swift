import Foundation
import Testing
@testable import GestureKit

@Suite("The config that last loaded from a file is kept for a start after a bad edit")
struct KeptConfigTests {
    static let middle = "bindings:\n  - name: hard-press\n    gesture: deep-press\n    action: {click: middle}\n"
    static let right = "bindings:\n  - name: hard-press\n    gesture: deep-press\n    action: {click: right}\n"

    /// A folder of the test's own, with a config file in it.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kept-config-\(UUID().uuidString)").path
        var config: String { path + "/config.yaml" }
        var kept: KeptConfig { KeptConfig(directory: path + "/state/configs") }

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        func write(_ text: String) throws {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }
    }

    /// Found in review of a school lab: with a full home, a config that loaded was never kept,
    /// and a bridge started on a broken edit later ran an older copy as "the config that last
    /// loaded".
    @Test("a copy that cannot be written says why, and the copy kept before is named as the last copy kept, with when")
    func cannotKeep() throws {
        let folder = try Folder()
        try folder.write(Self.middle)
        #expect(folder.kept.keep(folder.config, loadedAs: try ConfigLoader.load(path: folder.config)) == .kept)
        try folder.write(Self.right)
        let blocked = KeptConfig(directory: folder.config + "/configs")
        guard case .failed(let message) = blocked.keep(folder.config, loadedAs: try ConfigLoader.load(path: folder.config)) else {
            Issue.record("a copy that cannot be written counts as kept"); return
        }
        #expect(message.contains("cannot keep a copy of \(folder.config)"), "\(message)")
        try folder.write("bindings: [oops\n")
        let start = StartingConfig(.file(folder.config), kept: folder.kept)
        let standIn = try #require(start.standIn(for: .file(folder.config)))
        #expect(standIn.hasPrefix("the last copy kept of \(folder.config) (\(folder.kept.path(for: folder.config)), kept 20"), "\(standIn)")
    }

    @Test("kept when the file still holds what loaded; read back as loaded, readable by the user alone")
    func keptAndReadBack() throws {
        let folder = try Folder()
        try folder.write(Self.middle)
        let loaded = try ConfigLoader.load(path: folder.config)
        #expect(folder.kept.keep(folder.config, loadedAs: loaded) == .kept)
        try folder.write("bindings: [")
        let back = try #require(folder.kept.load(for: folder.config))
        #expect(back.bindings.bindings.map(\.onStart) == loaded.bindings.map(\.onStart))
        let mode = try FileManager.default.attributesOfItem(atPath: back.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("not kept when the file changed since it loaded (the next load keeps it); nothing kept for another file")
    func changedSinceItLoaded() throws {
        let folder = try Folder()
        try folder.write(Self.middle)
        let loaded = try ConfigLoader.load(path: folder.config)
        try folder.write(Self.right)
        #expect(folder.kept.keep(folder.config, loadedAs: loaded) == .changedSince)
        #expect(folder.kept.load(for: folder.config) == nil)
        #expect(folder.kept.keep(folder.config, loadedAs: try ConfigLoader.load(path: folder.config)) == .kept)
        #expect(folder.kept.load(for: folder.path + "/other.yaml") == nil)
        #expect(folder.kept.path(for: folder.config) != folder.kept.path(for: folder.path + "/config-yaml"))
    }

    /// Found in review of a config kept in dotfiles: an XDG_CONFIG_HOME ending in `/`, or the
    /// file reached through a linked folder, found nothing kept, and the bridge did not start.
    @Test("the copy kept for a file is found however its path is spelled: through a linked folder, with `//`")
    func spelledOtherwise() throws {
        let folder = try Folder()
        try folder.write(Self.middle)
        let linked = folder.path + "/linked"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: folder.path)
        #expect(folder.kept.keep(folder.config, loadedAs: try ConfigLoader.load(path: folder.config)) == .kept)
        try folder.write("bindings: [")
        for spelled in [linked + "/config.yaml", folder.path + "//config.yaml"] {
            #expect(folder.kept.load(for: spelled)?.bindings.bindings.map(\.name) == ["hard-press"], "\(spelled)")
        }
    }

    /// Found in review of the day: keyed by the link's final target, a config a home manager
    /// points at a new target with each change lost its last good copy at the first bad one.
    @Test("a config that is a link pointed at a new target, broken there: the copy kept from the target before")
    func linkRetargeted() throws {
        let folder = try Folder()
        let first = folder.path + "/generation-1.yaml", second = folder.path + "/generation-2.yaml"
        try Self.middle.write(toFile: first, atomically: true, encoding: .utf8)
        try "bindings: [".write(toFile: second, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.config, withDestinationPath: first)
        #expect(folder.kept.keep(folder.config, loadedAs: try ConfigLoader.load(path: folder.config)) == .kept)
        try FileManager.default.removeItem(atPath: folder.config)
        try FileManager.default.createSymbolicLink(atPath: folder.config, withDestinationPath: second)
        let loaded = try ConfigLoader.load(path: first)
        #expect(folder.kept.load(for: folder.config)?.bindings.bindings.map(\.onStart) == loaded.bindings.map(\.onStart))
    }

    @Test("a copy kept under the path as spelled (before 0.18) is still found")
    func keptUnderTheSpelling() throws {
        let folder = try Folder()
        let linked = folder.path + "/linked"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: folder.path)
        try FileManager.default.createDirectory(atPath: folder.kept.directory, withIntermediateDirectories: true)
        // Where 0.17 kept it: the hash of the path as given.
        let spelled = linked + "/config.yaml"
        let old = folder.kept.directory + "/" + FileContents.name(for: spelled.unicodeScalars.suffix(60), hashing: spelled) + ".yaml"
        try Self.middle.write(toFile: old, atomically: true, encoding: .utf8)
        #expect(chmod(old, 0o600) == 0)
        try folder.write("bindings: [")
        #expect(folder.kept.load(for: spelled)?.path == old)
    }

    @Test("a kept copy others could change is refused, as any config is")
    func keptCopyTrusted() throws {
        let folder = try Folder()
        try folder.write(Self.middle)
        #expect(folder.kept.keep(folder.config, loadedAs: try ConfigLoader.load(path: folder.config)) == .kept)
        #expect(chmod(folder.kept.path(for: folder.config), 0o666) == 0)
        #expect(folder.kept.load(for: folder.config) == nil)
    }

    @Test("what a bridge started now runs: the file; the copy kept for it; for the user's own file a link leading nowhere, the built-in default meanwhile; else nothing")
    func startingConfig() throws {
        let folder = try Folder()
        let home = folder.path + "/home"
        try FileManager.default.createDirectory(atPath: home + "/gesture-bridge", withIntermediateDirectories: true)
        let user = home + "/gesture-bridge/config.yaml", target = folder.path + "/dotfiles.yaml"
        let environment = ["XDG_CONFIG_HOME": home, "HOME": folder.path]
        #expect(symlink(target, user) == 0)
        #expect(ConfigSource.resolve(explicit: nil, environment: environment) == .file(user), "a link leading nowhere is still the user's file")
        let meanwhile = StartingConfig(.file(user), kept: folder.kept, environment: environment)
        guard case .builtInMeanwhile(let error) = meanwhile else { Issue.record("\(meanwhile)"); return }
        #expect(error.description.contains("is a link to \(target), which does not exist"), "\(error)")
        #expect(meanwhile.bindings == ConfigLoader.builtInDefault)
        // Named with --config, it stands for nothing.
        #expect(StartingConfig(.file(target), kept: folder.kept, environment: environment).bindings == nil)
        try Self.middle.write(toFile: target, atomically: true, encoding: .utf8)
        let loaded = StartingConfig(.file(user), kept: folder.kept, environment: environment)
        #expect(loaded.error == nil && loaded.bindings?.bindings.first?.name == "hard-press")
        #expect(folder.kept.keep(user, loadedAs: try #require(loaded.bindings)) == .kept)
        #expect(unlink(target) == 0)
        guard case .kept(let bindings, let keptAt, _) = StartingConfig(.file(user), kept: folder.kept, environment: environment) else {
            Issue.record("the copy kept is not used"); return
        }
        #expect(bindings == loaded.bindings && keptAt == folder.kept.path(for: user))
    }

    /// Found in review of a config written for someone else: their first config, saved over
    /// ssh with a typo (or made group-writable by an ssh session's umask), never loaded, and
    /// from the next login they had no gestures at all: `run` refused to start.
    @Test("the user's own file never loaded, nothing kept (a first config saved broken, or refused for who may change it): the built-in default meanwhile")
    func firstUserFileBroken() throws {
        let folder = try Folder()
        let home = folder.path + "/home"
        try FileManager.default.createDirectory(atPath: home + "/gesture-bridge", withIntermediateDirectories: true)
        let user = home + "/gesture-bridge/config.yaml"
        let environment = ["XDG_CONFIG_HOME": home, "HOME": folder.path]
        try "bindings:\n  - name: volume\n    gesture: knob\n    steps: {increase: {volume: +5%}\n"
            .write(toFile: user, atomically: true, encoding: .utf8)
        let broken = StartingConfig(.file(user), kept: folder.kept, environment: environment)
        guard case .builtInMeanwhile(let error) = broken else { Issue.record("\(broken)"); return }
        #expect(error.description.contains("\(user):"), "located in the file: \(error)")
        #expect(broken.bindings == ConfigLoader.builtInDefault)
        #expect(broken.standIn(for: .file(user)) == "the built-in default")
        try Self.middle.write(toFile: user, atomically: true, encoding: .utf8)
        #expect(chmod(user, 0o664) == 0)
        let refused = StartingConfig(.file(user), kept: folder.kept, environment: environment)
        guard case .builtInMeanwhile = refused else { Issue.record("\(refused)"); return }
        #expect(refused.bindings == ConfigLoader.builtInDefault)
        // The same file named with --config stands for nothing: the person asked for it.
        #expect(StartingConfig(.file(user), kept: folder.kept, environment: [:]).bindings == nil)
    }
}
