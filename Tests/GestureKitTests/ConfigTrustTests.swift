import Foundation
import Glibc
import Testing
@testable import GestureKit

/// A config whose `command` actions run as the user is read only when nobody else can change
/// it: the file and its directory belong to the user (or root) and only they may write them.
@Suite("Config trust", .serialized)
struct ConfigTrustTests {
    static let config = "bindings:\n  - {name: say, gesture: deep-press, action: {command: [true]}}\n"

    /// A private directory holding `config.yaml`, mode 0644, for the test's body.
    static func withConfig(_ body: (_ directory: String, _ file: String) throws -> Void) throws {
        var template = Array((NSTemporaryDirectory() + "/trust-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            Issue.record("cannot make a directory")
            return
        }
        // As the check names it: symbolic links and doubled slashes resolved.
        let directory = realpath(made, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/config.yaml"
        try config.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o644)
        try body(directory, file)
    }

    /// Found in review: only the folder holding the file a link leads to was looked at.
    @Test("a config reached through a link in a directory others may write is refused, as a file there is: a file link, a link to it, a folder link, a link through one; a sticky directory is not")
    func linksInWritableDirectory() throws {
        try Self.withConfig { directory, file in
            let shared = directory + "/shared"
            #expect(mkdir(shared, 0o755) == 0)
            #expect(chmod(shared, 0o777) == 0)
            #expect(symlink(file, shared + "/config.yaml") == 0)
            #expect(symlink(directory, shared + "/gb") == 0)
            #expect(symlink("shared/config.yaml", directory + "/via-link.yaml") == 0)
            #expect(symlink(shared + "/gb/config.yaml", directory + "/via-folder.yaml") == 0)
            for path in [shared + "/config.yaml", directory + "/via-link.yaml", shared + "/gb/config.yaml", directory + "/via-folder.yaml"] {
                let problem = ConfigTrust.problem(forConfigAt: path)
                #expect(problem?.contains("chmod go-w \(shared)") == true, "\(path): \(String(describing: problem))")
            }
            #expect(ConfigTrust.problem(forConfigAt: file) == nil, "the file itself, reached directly")
            #expect(chmod(shared, 0o1777) == 0)
            #expect(ConfigTrust.problem(forConfigAt: shared + "/config.yaml") == nil)
        }
    }

    @Test("the user's own file in the user's own directory is read")
    func ownFile() throws {
        try Self.withConfig { _, file in
            #expect(ConfigTrust.problem(forConfigAt: file) == nil)
            #expect((try? ConfigLoader.load(path: file))?.bindings.map(\.name) == ["say"])
        }
    }

    @Test("a file anyone may write is refused, saying why and how to fix it")
    func worldWritableFile() throws {
        try Self.withConfig { _, file in
            chmod(file, 0o666)
            let problem = try #require(ConfigTrust.problem(forConfigAt: file))
            #expect(problem.contains("can be changed by other users (mode 0666)") && problem.contains("`chmod go-w \(file)`"),
                    "\(problem)")
            do {
                _ = try ConfigLoader.load(path: file)
                Issue.record("a file anyone may write was read")
            } catch {
                #expect("\(error)".hasPrefix("\(file): error: refusing the config: "), "\(error)")
            }
            chmod(file, 0o664)
            #expect(ConfigTrust.problem(forConfigAt: file)?.contains("mode 0664") == true, "group-writable too")
        }
    }

    @Test("a directory others may write is refused; a sticky one, as /tmp, is not")
    func directories() throws {
        try Self.withConfig { directory, file in
            chmod(directory, 0o777)
            let problem = try #require(ConfigTrust.problem(forConfigAt: file))
            #expect(problem.contains("the directory \(directory)") && problem.contains("`chmod go-w \(directory)`"), "\(problem)")
            chmod(directory, 0o1777)
            #expect(ConfigTrust.problem(forConfigAt: file) == nil)
            chmod(directory, 0o700)
        }
    }

    @Test("a file another user owns is refused; one root owns is not")
    func owners() throws {
        try Self.withConfig { _, file in
            let me = geteuid()
            let stranger: uid_t = 54321
            if me == 0 {
                // Root's file (and directory) is trusted by anyone.
                #expect(ConfigTrust.problem(forConfigAt: file, user: 4321) == nil)
                chown(file, stranger, gid_t(0))
                let problem = try #require(ConfigTrust.problem(forConfigAt: file))
                #expect(problem.contains("belongs to another user (uid 54321)"), "\(problem)")
                #expect(problem.contains("`chown 0 "), "root may take it over: \(problem)")
                // Anyone else cannot: a copy of their own is what they can make.
                let pupil = try #require(ConfigTrust.problem(forConfigAt: file, user: 2002, environment: ["HOME": "/nonexistent"]))
                #expect(!pupil.contains("chown") && pupil.contains("`cp \(file) ~/gesture-bridge.yaml`"), "\(pupil)")
            } else {
                let problem = try #require(ConfigTrust.problem(forConfigAt: file, user: me + 1, environment: ["HOME": "/nonexistent"]))
                #expect(problem.contains("belongs to another user (uid \(me))"), "\(problem)")
                #expect(!problem.contains("chown") && problem.contains("`cp \(file) "), "\(problem)")
            }
        }
    }

    /// Found in review of the day's changes: a plain `cp` onto the user's own config failed as
    /// "the same file" when that was a link to the friend's file, or was the file itself.
    @Test("the user's own config, another user's file or a link to one: the advice, run, leaves a copy of their own in its place")
    func copyInPlace() throws {
        try Self.withConfig { directory, friends in
            let home = directory + "/home", own = home + "/gesture-bridge/config.yaml"
            try FileManager.default.createDirectory(atPath: home + "/gesture-bridge", withIntermediateDirectories: true)
            // As root, the files are given to a stranger; else they are this user's, and the
            // pupil another.
            let pupil: uid_t = geteuid() == 0 ? 2002 : geteuid() + 1
            for linked in [true, false] {
                unlink(own)
                if linked { #expect(symlink(friends, own) == 0) } else { try Self.config.write(toFile: own, atomically: false, encoding: .utf8) }
                if geteuid() == 0 { chown(friends, 54321, 0); chown(own, 54321, 0) }
                let advice = try #require(ConfigTrust.problem(forConfigAt: own, user: pupil, environment: ["XDG_CONFIG_HOME": home]))
                // The advice's command is its last quoted part.
                let parts = advice.split(separator: "`", omittingEmptySubsequences: false)
                let command = try #require(parts.count >= 3 ? String(parts[parts.count - 2]) : nil, "\(advice)")
                #expect(command.hasPrefix("cp "), "\(advice)")
                let shell = Process()
                shell.executableURL = URL(fileURLWithPath: "/bin/sh")
                shell.arguments = ["-c", command]
                try shell.run()
                shell.waitUntilExit()
                #expect(shell.terminationStatus == 0, "\(command)")
                #expect(!SymbolicLinks.isLink(own) && (try? String(contentsOfFile: own, encoding: .utf8)) == Self.config, "\(command)")
            }
        }
    }

    @Test("through a symbolic link, the file it points to is judged, and named")
    func symbolicLink() throws {
        try Self.withConfig { directory, file in
            let link = directory + "/link.yaml"
            symlink(file, link)
            #expect(ConfigTrust.problem(forConfigAt: link) == nil)
            chmod(file, 0o646)
            let problem = try #require(ConfigTrust.problem(forConfigAt: link))
            #expect(problem.contains("\(link) (\(file))") && problem.contains("mode 0646"), "\(problem)")
        }
    }

    @Test("a directory is no config: no advice about its mode, even for /tmp, which anyone may write; nor a device anyone may write")
    func directory() {
        #expect(ConfigTrust.problem(forConfigAt: "/tmp") == nil)
        // Found in review: `--config /dev/null` was advised `chmod go-w /dev/null`.
        #expect(ConfigTrust.problem(forConfigAt: "/dev/null") == nil)
    }

    /// Found in review of the bridge's security: another user's named pipe, made where a
    /// config in a sticky folder was (/tmp, which only lets a file's owner replace it) and fed,
    /// passed as "no file", and ran his bindings' commands as the user.
    @Test("a named pipe of another user is refused; the user's own, and a device root owns, are read")
    func anotherUsersPipe() throws {
        try Self.withConfig { directory, file in
            chmod(directory, 0o1777)
            let pipe = directory + "/pipe.yaml"
            #expect(mkfifo(pipe, 0o644) == 0)
            #expect(ConfigTrust.problem(forConfigAt: pipe) == nil, "the user's own pipe (process substitution is one)")
            let me = geteuid()
            let reader: uid_t = me == 0 ? 4321 : me + 1
            if me == 0 { #expect(chown(pipe, 54321, 0) == 0) }
            let problem = try #require(ConfigTrust.problem(forConfigAt: pipe, user: reader))
            #expect(problem.contains("pipe or device of another user"), "\(problem)")
            #expect(ConfigTrust.problem(forConfigAt: "/dev/null", user: reader) == nil)
            chmod(directory, 0o700)
        }
    }

    /// Found in review of the bridge's security: the folders above the config's were not
    /// looked at, and one of a group that may write a folder above swapped the user's folder
    /// for one of theirs between the look and the read, one read in twenty.
    @Test("a folder above the config's that others may write (not sticky) is refused; a sticky one is not, nor one only the user's own group may write")
    func foldersAbove() throws {
        try Self.withConfig { directory, _ in
            let mine = directory + "/mine"
            #expect(mkdir(mine, 0o755) == 0)
            let file = mine + "/config.yaml"
            try Self.config.write(toFile: file, atomically: false, encoding: .utf8)
            chmod(file, 0o644)
            #expect(ConfigTrust.problem(forConfigAt: file) == nil)
            chmod(directory, 0o2777)
            let problem = try #require(ConfigTrust.problem(forConfigAt: file))
            #expect(problem.contains("the directory \(directory) above the config file"), "\(problem)")
            chmod(directory, 0o1777)
            #expect(ConfigTrust.problem(forConfigAt: file) == nil)
            // Writable by a group: refused but for the user's own private group (Debian's and
            // Ubuntu's umask 002 leaves `~/.config` so), which nobody else is in.
            chmod(directory, 0o775)
            var status = stat()
            #expect(stat(directory, &status) == 0)
            let own = ConfigTrust.isPrivateGroup(status.st_gid, of: geteuid())
            #expect((ConfigTrust.problem(forConfigAt: file) == nil) == own, "the folder's group \(status.st_gid) private: \(own)")
            if geteuid() == 0 {
                #expect(chown(directory, uid_t.max, 4242) == 0)
                #expect(ConfigTrust.problem(forConfigAt: file) != nil, "a group of others")
            }
            chmod(directory, 0o700)
        }
    }

    /// Found in review of odd names: a path with a space or a quote, pasted from the advice,
    /// ran `chmod` on other paths, or left the shell waiting for a closing quote.
    @Test("the advice's command names the file as one shell word, whatever its name")
    func adviceQuoted() throws {
        try Self.withConfig { directory, _ in
            let odd = directory + "/dir with space/it's.yaml"
            try FileManager.default.createDirectory(atPath: directory + "/dir with space", withIntermediateDirectories: false)
            try Self.config.write(toFile: odd, atomically: false, encoding: .utf8)
            chmod(odd, 0o666)
            let problem = try #require(ConfigTrust.problem(forConfigAt: odd))
            let quoted = "'" + directory + "/dir with space/it'\\''s.yaml'"
            #expect(problem.contains("`chmod go-w \(quoted)`"), "\(problem)")
        }
    }
}
