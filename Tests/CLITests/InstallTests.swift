import Foundation
import Testing

@Suite("Install and uninstall", .serialized)
struct InstallTests {
    /// `destdir`: an install staged there (DESTDIR).
    /// `path`: the PATH it runs with, instead of the tests'.
    /// `configHome`: the XDG_CONFIG_HOME it runs with (none by default).
    /// `session`: variables of the session it runs in (`WAYLAND_DISPLAY`), none by default.
    static func script(_ name: String, _ arguments: [String], home: String, destdir: String? = nil,
                       path: String? = nil, configHome: String? = nil, session: [String: String] = [:]) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        for variable in ["WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_RUNTIME_DIR"] { environment[variable] = nil }
        environment.merge(session) { $1 }
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = configHome
        environment["XDG_STATE_HOME"] = nil
        environment["DESTDIR"] = destdir
        if let path { environment["PATH"] = path }
        return try runTool(GestureBridgeExecutable.repositoryRoot.appendingPathComponent("scripts/\(name)").path, arguments,
                           environment: environment)
    }

    /// Runs `body` with two fresh folders (a home, and a prefix or a stage), removed after.
    static func withTwoFolders(_ body: (String, String) throws -> Void) throws {
        let first = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: first) }
        let second = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: second) }
        try body(first, second)
    }

    static func temporaryDirectory() throws -> String {
        try temporaryFolder("gesture-bridge-install")
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// What groff says of a man page as it formats it, every warning on.
    static func groffWarnings(_ page: String) throws -> String {
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = ["-mandoc", "-Tutf8", "-ww", page]
        let errors = Pipe()
        groff.standardOutput = FileHandle.nullDevice
        groff.standardError = errors
        try groff.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        return said
    }

    @Test("the user unit does not restart a bridge the session cannot run: the statuses `run` exits with in a Wayland session, beside another bridge and with its X server gone; one started before the session gave it DISPLAY is, a few times; a bridge that keeps failing stops being restarted")
    func unitRestarts() throws {
        let unit = try String(contentsOf: GestureBridgeExecutable.repositoryRoot.appendingPathComponent("dist/gesture-bridge.service"),
                              encoding: .utf8)
        func values(_ key: String) -> [String] {
            unit.split(separator: "\n").filter { $0.hasPrefix("\(key)=") }.flatMap { $0.dropFirst(key.count + 1).split(separator: " ").map(String.init) }
        }
        let prevented = values("RestartPreventExitStatus")
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = "wayland-0"
        let wayland = try GestureBridgeExecutable.run(["run"], environment: environment, timeout: 10)
        #expect(wayland.status != 0 && prevented.contains("\(wayland.status)"), "\(wayland.status): \(wayland.stderr)")
        environment["WAYLAND_DISPLAY"] = nil
        environment["DISPLAY"] = nil
        environment["INVOCATION_ID"] = "0123456789abcdef0123456789abcdef"
        let noDisplay = try GestureBridgeExecutable.run(["run"], environment: environment, timeout: 10)
        #expect(noDisplay.status != 0 && !prevented.contains("\(noDisplay.status)"), "\(noDisplay.status): \(noDisplay.stderr)")
        #expect(noDisplay.stderr.contains("import-environment DISPLAY XAUTHORITY"), "\(noDisplay.stderr)")
        #expect(prevented.contains("75"), "another bridge on the display (InstanceClaim)")
        // Found in review of the service's life: restarted every two seconds against an X server
        // gone, the bridge used up the five starts a minute, and a login within that minute
        // found the unit refusing to start.
        #expect(prevented.contains("69"), "the X server gone (ConnectionLoss)")
        #expect(values("Restart") == ["on-failure"])
        // Found in review of a machine short of memory: a browser a gesture started, killed by
        // the kernel for want of memory, stopped the unit, the bridge with it.
        #expect(values("OOMPolicy") == ["continue"], "a program a command started, killed for want of memory, stops the bridge")
        #expect(values("StartLimitBurst").compactMap { Int($0) }.first.map { $0 <= 10 } == true)
        #expect(values("StartLimitIntervalSec").compactMap { Int($0) }.first.map { $0 >= 30 } == true)
    }

    @Test("a home install puts everything in place, keeps the user's config, and uninstalls cleanly")
    func homeInstall() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }

        let install = try Self.script("install", ["--binary", binary], home: home)
        #expect(install.status == 0, "\(install.output)")
        let installed = [
            ".local/bin/gesture-bridge",
            ".local/share/gesture-bridge/config.example.yaml",
            ".local/share/doc/gesture-bridge/config.md",
            ".local/share/doc/gesture-bridge/README.md",
            ".config/systemd/user/gesture-bridge.service",
            ".config/autostart/gesture-bridge.desktop",
            ".local/share/man/man1/gesture-bridge.1",
            ".local/share/bash-completion/completions/gesture-bridge",
            ".local/share/zsh/site-functions/_gesture-bridge",
            ".local/share/fish/vendor_completions.d/gesture-bridge.fish",
            ".config/gesture-bridge/config.yaml",
        ]
        for file in installed {
            #expect(exists("\(home)/\(file)"), "\(file) was not installed")
        }
        let unit = try String(contentsOfFile: "\(home)/.config/systemd/user/gesture-bridge.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(home)/.local/bin/gesture-bridge run --replace\n"),
                "a restart takes the display over from the bridge the autostart entry started (the old program, after an upgrade)")
        let entry = try String(contentsOfFile: "\(home)/.config/autostart/gesture-bridge.desktop", encoding: .utf8)
        #expect(entry.contains("Exec=\(home)/.local/bin/gesture-bridge run --autostart\n"),
                "the entry's leaves a running bridge be, and ends with status 0 where there is nothing to do")
        let manual = try String(contentsOfFile: "\(home)/.local/share/man/man1/gesture-bridge.1", encoding: .utf8)
        #expect(manual.contains("replay") && manual.contains("print-config"))
        // Read as man reads it, the page has nothing to warn of: a screenful of "mdoc warning:
        // Empty input line" stayed in the terminal after each `man gesture-bridge`.
        let groff = try Self.groffWarnings("\(home)/.local/share/man/man1/gesture-bridge.1")
        #expect(groff.isEmpty, "\(groff)")
        let bash = try String(contentsOfFile: "\(home)/.local/share/bash-completion/completions/gesture-bridge", encoding: .utf8)
        #expect(bash.contains("analyze") && bash.contains("--config"))
        // The installed binary finds the installed config.
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "\(home)/.local/bin/gesture-bridge")
        check.arguments = ["print-config"]
        check.environment = ["HOME": home]
        let pipe = Pipe()
        check.standardOutput = pipe
        try check.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(printed.contains("from \(home)/.config/gesture-bridge/config.yaml"))

        // An edited config survives a reinstall and the uninstall.
        try "# mine\n".appending(String(contentsOfFile: "\(home)/.config/gesture-bridge/config.yaml", encoding: .utf8))
            .write(toFile: "\(home)/.config/gesture-bridge/config.yaml", atomically: true, encoding: .utf8)
        #expect(try Self.script("install", ["--binary", binary], home: home).status == 0)
        let uninstall = try Self.script("uninstall", [], home: home)
        #expect(uninstall.status == 0, "\(uninstall.output)")
        for file in installed.dropLast() {
            #expect(!exists("\(home)/\(file)"), "\(file) was left behind")
        }
        let config = try String(contentsOfFile: "\(home)/.config/gesture-bridge/config.yaml", encoding: .utf8)
        #expect(config.hasPrefix("# mine"))
    }

    /// Found in review of a config kept in a dotfiles repository: on a branch without the
    /// file, `install -D` replaced the link with a copy of the default (the repository's file
    /// never read again), and a folder link leading nowhere stopped the install half-way.
    @Test("a config, or its folder, that is a link leading nowhere is left as it is, and the install completes", arguments: [
        ".config/gesture-bridge/config.yaml", ".config/gesture-bridge",
    ])
    func danglingConfigLink(link: String) throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let path = "\(home)/\(link)"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "\(home)/dotfiles/gesture-bridge/somewhere")
        let install = try Self.script("install", ["--binary", binary], home: home)
        #expect(install.status == 0, "\(install.output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "\(home)/dotfiles/gesture-bridge/somewhere")
        #expect(!exists("\(home)/dotfiles"), "nothing written where the link leads")
        #expect(exists("\(home)/.local/share/gesture-bridge/installed-files"), "the install completed")
        #expect(try Self.script("uninstall", [], home: home).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "\(home)/dotfiles/gesture-bridge/somewhere")
    }

    @Test("a relative XDG_CONFIG_HOME counts as unset, as the bridge takes it: the config and the unit go under ~/.config")
    func relativeConfigHome() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let install = try Self.script("install", ["--binary", binary], home: home, configHome: "~/.xdg")
        #expect(install.status == 0, "\(install.output)")
        #expect(exists("\(home)/.config/gesture-bridge/config.yaml") && exists("\(home)/.config/systemd/user/gesture-bridge.service"))
        #expect(!exists(GestureBridgeExecutable.repositoryRoot.appendingPathComponent("~").path), "nothing under the repository")
        #expect(try Self.script("uninstall", [], home: home, configHome: "~/.xdg").status == 0)
    }

    /// Found in review of other locales: installed into a home folder whose name has a space
    /// ("Jane Doe"), the unit's ExecStart and the entry's Exec split at it, and neither ever
    /// started the bridge; an empty XDG_CONFIG_HOME failed the install. (A `%` is tried in a
    /// prefix: in a home, the compiler that makes the man page cannot keep its module cache.)
    @Test("a home or prefix with a space, quotes, $ or %: the unit and the entry name the installed program whole; an empty XDG_CONFIG_HOME counts as unset",
          arguments: [("Jane Doe", nil), (#"Jane "Jo" $HOME"#, nil), ("Jane", "/opt/tools 100%")])
    func homeWithSpace(name: String, prefix: String?) throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        try Self.withTwoFolders { folder, stage in
            let home = folder + "/" + name
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let options = prefix.map { ["--prefix", $0] } ?? []
            let install = try Self.script("install", options + ["--binary", binary], home: home, destdir: prefix.map { _ in stage }, configHome: "")
            #expect(install.status == 0, "\(install.output)")
            let program = (prefix ?? home + "/.local") + "/bin/gesture-bridge"
            let files = prefix.map { (stage + $0 + "/lib/systemd/user", stage + $0 + "/etc/xdg/autostart") }
                ?? (home + "/.config/systemd/user", home + "/.config/autostart")
            let unit = try String(contentsOfFile: files.0 + "/gesture-bridge.service", encoding: .utf8)
            let unitProgram = program.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "%", with: "%%")
                .replacingOccurrences(of: "$", with: "$$")
            #expect(unit.split(separator: "\n").contains("ExecStart=\"\(unitProgram)\" run --replace"), "\(unit)")
            let entry = try String(contentsOfFile: files.1 + "/gesture-bridge.desktop", encoding: .utf8)
            // Within the quotes \" and \$, each backslash then written twice in the entry's value.
            let entryProgram = program.replacingOccurrences(of: "\"", with: "\\\\\"").replacingOccurrences(of: "$", with: "\\\\$")
                .replacingOccurrences(of: "%", with: "%%")
            #expect(entry.split(separator: "\n").contains("Exec=\"\(entryProgram)\" run --autostart"), "\(entry)")
            #expect(entry.split(separator: "\n").contains("TryExec=\(program)"), "\(entry)")
            #expect(try Self.script("uninstall", options, home: home, destdir: prefix.map { _ in stage }, configHome: "").status == 0)
        }
    }

    /// Found in review of a Wayland user's week: installed in a Wayland session, the advice was
    /// to enable a service that ends at once there.
    @Test("installed in a Wayland session (its compositor's socket there): it says the bridge does nothing there, and gives no advice to start it")
    func installInWayland() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        try Self.withTwoFolders { home, runtime in
            #expect(FileManager.default.createFile(atPath: runtime + "/wayland-0", contents: nil))
            let install = try Self.script("install", ["--binary", binary], home: home,
                                          session: ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime])
            #expect(install.status == 0, "\(install.output)")
            #expect(install.output.contains("Wayland session") && !install.output.contains("enable --now"), "\(install.output)")
            // Left over from an earlier login, with no compositor there: the usual advice.
            try FileManager.default.removeItem(atPath: runtime + "/wayland-0")
            let again = try Self.script("install", ["--binary", binary], home: home,
                                        session: ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime])
            #expect(!again.output.contains("Wayland session") && again.output.contains("enable --now"), "\(again.output)")
            #expect(try Self.script("uninstall", [], home: home).status == 0)
        }
    }

    @Test("a prefix install uses system locations; uninstall of nothing says so")
    func prefixInstall() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        try Self.withTwoFolders { home, prefix in
            let install = try Self.script("install", ["--prefix", prefix, "--binary", binary], home: home)
            #expect(install.status == 0)
            #expect(exists("\(prefix)/lib/systemd/user/gesture-bridge.service"))
            // Found in review of the day's diff: every user's manager keeps the unit it had read.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemctl") || FileManager.default.isExecutableFile(atPath: "/bin/systemctl") {
                #expect(install.output.contains("systemctl --user daemon-reload && systemctl --user restart gesture-bridge"), "\(install.output)")
            }
            #expect(exists("\(prefix)/etc/xdg/autostart/gesture-bridge.desktop"))
            #expect(!exists("\(home)/.config/gesture-bridge/config.yaml"), "a system install must not write into a home")
            #expect(try Self.script("uninstall", ["--prefix", prefix], home: home).status == 0)
            #expect(!exists("\(prefix)/bin/gesture-bridge"))
            let again = try Self.script("uninstall", ["--prefix", prefix], home: home)
            #expect(again.status != 0 && again.output.contains("not installed"))
            let bad = try Self.script("install", ["--frobnicate"], home: home)
            #expect(bad.status == 2 && bad.output.contains("unknown option --frobnicate"))
        }
    }

    @Test("an install into /usr/local (staged with DESTDIR) puts the autostart entry in /etc/xdg/autostart, where desktops read it; its files name /usr/local; uninstall takes them all")
    func usrLocalInstall() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        try Self.withTwoFolders { home, stage in
            let install = try Self.script("install", ["--prefix", "/usr/local", "--binary", binary], home: home, destdir: stage)
            #expect(install.status == 0, "\(install.output)")
            #expect(!install.output.contains("desktops do not read"), "\(install.output)")
            let entry = try String(contentsOfFile: "\(stage)/etc/xdg/autostart/gesture-bridge.desktop", encoding: .utf8)
            #expect(entry.contains("Exec=/usr/local/bin/gesture-bridge run"))
            let unit = try String(contentsOfFile: "\(stage)/usr/local/lib/systemd/user/gesture-bridge.service", encoding: .utf8)
            #expect(unit.contains("ExecStart=/usr/local/bin/gesture-bridge run"))
            #expect(exists("\(stage)/usr/local/bin/gesture-bridge"))
            #expect(!exists("\(stage)/usr/local/etc"), "no autostart entry where no desktop looks")
            #expect(try Self.script("uninstall", ["--prefix", "/usr/local"], home: home, destdir: stage).status == 0)
            #expect(!exists("\(stage)/etc/xdg/autostart/gesture-bridge.desktop") && !exists("\(stage)/usr/local/bin/gesture-bridge"))
        }
    }

    /// Found in review: after `make install` on a fresh account ~/.local/bin is on PATH only
    /// from the next login (Debian's ~/.profile adds it if it existed then), and `gesture-bridge`
    /// was "command not found" without a word why.
    @Test("install says when the folder it put gesture-bridge in is not on PATH (log out and in, or add it), and says nothing of it when it is")
    func binNotOnPath() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let tests = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let fresh = try Self.script("install", ["--binary", binary], home: home, path: tests)
        #expect(fresh.status == 0, "\(fresh.output)")
        let hint = fresh.output.split(separator: "\n").filter { $0.contains("\(home)/.local/bin is not on your PATH") }
        #expect(hint.count == 1, "\(fresh.output)")
        #expect(hint.first.map { $0.contains("log out and in") && $0.contains("export PATH=") } == true, "\(fresh.output)")
        let onPath = try Self.script("install", ["--binary", binary], home: home, path: "\(home)/.local/bin:\(tests)")
        #expect(onPath.status == 0 && !onPath.output.contains("not on your PATH"), "\(onPath.output)")
        #expect(try Self.script("uninstall", [], home: home).status == 0)
    }

    /// Found in review: README said uninstall removes all but your config, and the learned
    /// state, calibrated marks and kept configs in ~/.local/state/gesture-bridge stayed without
    /// a word; systemd went on listing the removed unit until its next reload.
    @Test("uninstall says it leaves the state folder and how to remove it, and has the user manager forget the removed unit (systemctl --user daemon-reload)")
    func uninstallLeavesState() throws {
        let binary = try #require(GestureBridgeExecutable.url).path
        let home = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        // A systemctl that notes how it was called.
        let tools = home + "/tools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \"$*\" >> \"\(home)/systemctl-calls\"\n".write(toFile: tools + "/systemctl", atomically: true, encoding: .utf8)
        #expect(chmod(tools + "/systemctl", 0o755) == 0)
        let path = "\(tools):" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let install = try Self.script("install", ["--binary", binary], home: home, path: path)
        #expect(install.status == 0)
        // Found in review of an upgrade: over an earlier install the user manager kept the unit
        // it had read, and `restart` ran the old one (without `--replace`, with other statuses).
        let installed = try String(contentsOfFile: "\(home)/systemctl-calls", encoding: .utf8).split(separator: "\n")
        #expect(installed == ["--user daemon-reload", "--user is-active --quiet gesture-bridge"], "\(installed)")
        #expect(install.output.contains("systemctl --user restart gesture-bridge"), "a bridge running: \(install.output)")
        try FileManager.default.removeItem(atPath: "\(home)/systemctl-calls")
        let state = "\(home)/.local/state/gesture-bridge"
        try FileManager.default.createDirectory(atPath: state + "/configs", withIntermediateDirectories: true)
        try "version 1\n".write(toFile: state + "/Pen-0123abcd.learned", atomically: true, encoding: .utf8)

        let uninstall = try Self.script("uninstall", [], home: home, path: path)
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(uninstall.output.contains("Left \(state) ("), "\(uninstall.output)")
        #expect(uninstall.output.contains("rm -r \(state)"), "\(uninstall.output)")
        #expect(exists(state + "/Pen-0123abcd.learned"), "what was learned is the user's to remove")
        #expect(!exists("\(home)/.config/systemd/user/gesture-bridge.service"))
        let calls = try String(contentsOfFile: "\(home)/systemctl-calls", encoding: .utf8).split(separator: "\n")
        #expect(calls == ["--user disable --now gesture-bridge", "--user daemon-reload"], "\(calls)")

        // With no state folder, nothing to say of it.
        try FileManager.default.removeItem(atPath: "\(home)/.local/state")
        #expect(try Self.script("install", ["--binary", binary], home: home, path: path).status == 0)
        let again = try Self.script("uninstall", [], home: home, path: path)
        #expect(again.status == 0 && !again.output.contains("Left"), "\(again.output)")
    }
}

/// Runs `executable` from the repository's root and waits: its exit status and what it wrote to
/// standard output and error together.
func runTool(_ executable: String, _ arguments: [String],
             environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = GestureBridgeExecutable.repositoryRoot
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}
