import Foundation
import Testing

/// Every command that reads a config takes `--config FILE` and falls back the same way: the
/// user's own file when it exists, else the built-in default.
@Suite("Command line: one config option, one fallback")
struct ConfigFallbackTests {
    /// A home whose ~/.config/gesture-bridge/config.yaml has one binding, named so a test can
    /// tell it from the built-in default's three.
    static func homeWithUserConfig() throws -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-home-\(UUID().uuidString)")
        let directory = home.appendingPathComponent(".config/gesture-bridge")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "bindings:\n  - {name: users-own, gesture: deep-press, action: {click: right}}\n"
            .write(to: directory.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        return ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    @Test("check, print-config and replay read the user's file when there is no --config", arguments: [
        ["check"], ["print-config"], ["replay", CommandLineTests.fixture, "--json"],
    ])
    func userFileFallback(arguments: [String]) throws {
        let run = try GestureBridgeExecutable.run(arguments, environment: try Self.homeWithUserConfig())
        #expect(run.status == 0, "\(run.stderr)")
        let named = arguments[0] == "replay" ? "\"winner\":\"users-own\"" : "users-own"
        #expect(run.stdout.contains(named), "\(run.stdout.prefix(600))")
        #expect(!run.stdout.contains("touch-right-click"), "the built-in default was read instead")
    }

    /// Found in review: the help's example, `print-config > ~/.config/.../config.yaml`, had
    /// the shell empty the file before print-config read it, and left an empty config that
    /// every command then refused.
    @Test("print-config's help example, run as written, leaves a config that check accepts, under Debian's umask and Ubuntu's",
          arguments: ["022", "002"])
    func printConfigExample(umask: String) throws {
        let home = URL(fileURLWithPath: try temporaryFolder("gesture-bridge-home"))
        defer { try? FileManager.default.removeItem(at: home) }
        let binary = try #require(GestureBridgeExecutable.url, "gesture-bridge is built").deletingLastPathComponent().path
        let environment = ["HOME": home.path, "PATH": binary + ":/usr/bin:/bin"]
        let help = try GestureBridgeExecutable.run(["print-config", "--help"])
        let example = help.stdout.components(separatedBy: "Example:\n").last?
            .split(separator: "\n").prefix { $0.hasPrefix("  ") }.joined(separator: "\n") ?? ""
        #expect(example.contains("print-config"), "\(help.stdout)")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-e", "-c", "umask \(umask)\n" + example]
        shell.environment = environment
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let check = try GestureBridgeExecutable.run(["check"], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("config.yaml: OK, 3 bindings"), "\(check.stdout)")
    }

    @Test("without a user file, the built-in default")
    func builtInFallback() throws {
        let run = try GestureBridgeExecutable.run(["check"], environment: ["HOME": "/nonexistent", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("<built-in default>: OK, 3 bindings"), "\(run.stdout)")
    }

    @Test("check takes its file as an argument or with --config, not both")
    func checkForms() throws {
        let positional = try GestureBridgeExecutable.run(["check", "config/default.yaml"])
        let option = try GestureBridgeExecutable.run(["check", "--config", "config/default.yaml"])
        #expect(positional.status == 0 && option.status == 0)
        #expect(positional.stdout == option.stdout)
        let both = try GestureBridgeExecutable.run(["check", "config/default.yaml", "--config", "config/default.yaml"])
        #expect(both.status != 0 && !both.crashed)
        #expect(both.stderr.contains("name the config once"), "\(both.stderr)")
    }

    @Test("a config file anyone may write is refused by check, with the fix, and a non-zero exit")
    func untrustedFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/config.yaml"
        try String(contentsOfFile: "config/default.yaml", encoding: .utf8).write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)
        let refused = try GestureBridgeExecutable.run(["check", file])
        #expect(refused.status != 0 && !refused.crashed)
        #expect(refused.stderr.contains("refusing the config") && refused.stderr.contains("chmod go-w \(file)"), "\(refused.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(try GestureBridgeExecutable.run(["check", file]).status == 0)
    }

    @Test("--version prints the version alone")
    func version() throws {
        let run = try GestureBridgeExecutable.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
    }
}
