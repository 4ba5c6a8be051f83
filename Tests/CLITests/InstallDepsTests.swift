import Foundation
import Testing

/// `scripts/install-deps` against a stand-in apt: what `make run` and `make test` would ask apt
/// for on a machine that has none of it.
@Suite("Installing the dependencies")
struct InstallDepsTests {
    /// Runs the script with `arguments`, an `apt-get` that records its arguments (and fails an
    /// install when `aptFails`), a `dpkg-query` that finds nothing installed and a `sudo` that
    /// runs its command; returns the status, the output and each `apt-get` call's arguments.
    static func run(_ arguments: [String], aptFails: Bool = false) throws -> (status: Int32, output: String, calls: [[String]]) {
        let bin = URL(fileURLWithPath: try temporaryFolder("gesture-bridge-deps"))
        defer { try? FileManager.default.removeItem(at: bin) }
        let log = bin.appendingPathComponent("apt-calls").path
        let tools = [
            "apt-get": """
                #!/bin/sh
                echo "$*" >> '\(log)'
                case "$1" in install) \(aptFails ? "echo 'E: Packages need to be removed but remove is disabled.' >&2; exit 100" : "exit 0") ;; esac
                """,
            "dpkg-query": "#!/bin/sh\nexit 1\n",
            "sudo": "#!/bin/sh\nexec \"$@\"\n",
        ]
        for (name, text) in tools {
            let path = bin.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let script = GestureBridgeExecutable.repositoryRoot.appendingPathComponent("scripts/install-deps").path
        let result = try runTool(script, arguments, environment: environment)
        let calls = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        return (result.status, result.output, calls)
    }

    @Test("make run's set-up asks apt for what building and running need: no sound server, no X server, never a removal")
    func runNeedsLittle() throws {
        let result = try Self.run([])
        #expect(result.status == 0, "\(result.output)")
        let install = try #require(result.calls.first { $0.first == "install" })
        #expect(install.contains("--no-remove"))
        #expect(install.contains("libcairo2-dev") && install.contains("libxi-dev"))
        for test in ["pulseaudio", "pipewire", "xserver-xorg-core", "xvfb", "xserver-xorg-input-libinput", "lintian"] {
            #expect(!install.contains(test), "\(test) is the tests'")
        }
    }

    @Test("make test's set-up adds the tests' servers and tools, still never a removal; apt refusing stops it with the reason")
    func testsNeedMore() throws {
        let result = try Self.run(["--tests"])
        #expect(result.status == 0, "\(result.output)")
        let install = try #require(result.calls.first { $0.first == "install" })
        #expect(install.contains("--no-remove") && install.contains("pulseaudio") && install.contains("xserver-xorg-core"))

        let refused = try Self.run(["--tests"], aptFails: true)
        #expect(refused.status == 1)
        #expect(refused.output.contains("remove is disabled"))
        #expect(refused.output.contains("nothing was removed"), "\(refused.output)")
        #expect(try Self.run(["--everything"]).status == 64)
    }
}
