import Foundation
import Glibc
import Testing

/// `make deb`'s package, as Debian and Ubuntu users install it: lintian finds no error, dpkg
/// installs it, the installed binary runs and its user unit verifies, and `dpkg -r` takes
/// every file away again but the autostart entry, a conffile, which a purge takes.
@Suite("The Debian package", .serialized)
struct DebPackageTests {
    /// The autostart entry: a conffile, so that an administrator's deletion stays deleted.
    static let autostartEntry = "/etc/xdg/autostart/gesture-bridge.desktop"
    static let paths = [
        "/usr/bin/gesture-bridge",
        "/usr/lib/systemd/user/gesture-bridge.service",
        "/usr/share/gesture-bridge/config.example.yaml",
        "/usr/share/man/man1/gesture-bridge.1.gz",
        "/usr/share/bash-completion/completions/gesture-bridge",
        "/usr/share/zsh/vendor-completions/_gesture-bridge",
        "/usr/share/fish/vendor_completions.d/gesture-bridge.fish",
        "/usr/share/doc/gesture-bridge/copyright",
        "/usr/share/doc/gesture-bridge/changelog.gz",
        "/usr/share/doc/gesture-bridge/config.md.gz",
        "/usr/share/doc/gesture-bridge/README.md.gz",
    ]

    func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The release binary `make test` builds first (`make release`): a package carries the Swift
    /// runtime inside its binary, which the debug build loads from the toolchain.
    static let releaseBinary = GestureBridgeExecutable.repositoryRoot.appendingPathComponent(".build/release/gesture-bridge").path

    @Test("built, checked by lintian, installed with dpkg -i over an earlier package's linked autostart entry, run, its unit verified; the autostart entry, deleted, stays deleted through a reinstall; removed with dpkg -r leaving nothing but a conffile desktops skip, which a purge takes",
          .enabled(if: geteuid() == 0, "installing a package needs root"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: releaseBinary),
                   "needs the release binary: `make release` (make test builds it first)"))
    func buildInstallRemove() throws {
        let binary = Self.releaseBinary
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("deb-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let built = try runTool(GestureBridgeExecutable.repositoryRoot.appendingPathComponent("scripts/deb").path,
                                 ["--binary", binary, "--output", output])
        try #require(built.status == 0, "\(built.output)")
        let deb = try #require(built.output.split(separator: "\n").last.map(String.init))
        #expect(deb.hasSuffix(".deb") && exists(deb), "\(built.output)")

        let lintian = try runTool("/usr/bin/lintian", ["--fail-on", "error", "--tag-display-limit", "0", deb])
        #expect(lintian.status == 0, "lintian: \(lintian.output)")
        #expect(!lintian.output.split(separator: "\n").contains { $0.hasPrefix("E: ") }, "\(lintian.output)")

        // Where an earlier package left its entry: a link into /usr/share (dpkg would keep it,
        // dangling once the new package is in, and put the entry beside it as .dpkg-new).
        try FileManager.default.createDirectory(atPath: "/etc/xdg/autostart", withIntermediateDirectories: true)
        if !exists(Self.autostartEntry) {
            try FileManager.default.createSymbolicLink(atPath: Self.autostartEntry,
                                                       withDestinationPath: "/usr/share/gesture-bridge/autostart/gesture-bridge.desktop")
        }
        // Found in review: an upgrade that failed after the preinst took the link away left the
        // earlier package without its entry. Moved aside, it comes back as dpkg aborts.
        let scripts = output + "/control"
        #expect(try runTool("/usr/bin/dpkg-deb", ["-e", deb, scripts]).status == 0)
        #expect(try runTool(scripts + "/preinst", ["upgrade", "0.14.0"]).status == 0)
        #expect(!exists(Self.autostartEntry), "the earlier link moved aside")
        #expect(try runTool(scripts + "/postrm", ["abort-upgrade", "0.14.0"]).status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: Self.autostartEntry)) != nil, "the link back after the abort")
        let install = try runTool("/usr/bin/dpkg", ["-i", deb])
        try #require(install.status == 0, "\(install.output)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: Self.autostartEntry)) == nil, "the earlier package's link replaced")
        #expect(!exists(Self.autostartEntry + ".dpkg-new") && !exists(Self.autostartEntry + ".dpkg-link"))
        defer { _ = try? runTool("/usr/bin/dpkg", ["--purge", "gesture-bridge"]) }
        for path in Self.paths + [Self.autostartEntry] {
            #expect(exists(path), "\(path) was not installed")
        }
        let entry = try String(contentsOfFile: Self.autostartEntry, encoding: .utf8)
        #expect(entry.contains("TryExec=/usr/bin/gesture-bridge\n") && entry.contains("Exec=/usr/bin/gesture-bridge run --autostart\n"), "\(entry)")
        // Found in review of the package: an administrator who deleted the entry, for the
        // bridge to start only where a user enables the service, had it back at the next
        // upgrade (it was a link the package owned, not a conffile).
        try FileManager.default.removeItem(atPath: Self.autostartEntry)
        let reinstall = try runTool("/usr/bin/dpkg", ["-i", deb])
        #expect(reinstall.status == 0, "\(reinstall.output)")
        #expect(!exists(Self.autostartEntry), "the deleted entry came back: \(reinstall.output)")
        let version = try runTool("/usr/bin/gesture-bridge", ["--version"])
        let expected = try runTool(binary, ["--version"])
        #expect(version.status == 0 && version.output == expected.output, "\(version.output)")
        let check = try runTool("/usr/bin/gesture-bridge", ["check", "/usr/share/gesture-bridge/config.example.yaml"])
        #expect(check.status == 0, "\(check.output)")
        let unit = try String(contentsOfFile: "/usr/lib/systemd/user/gesture-bridge.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/gesture-bridge run"))
        let verify = try runTool("/usr/bin/systemd-analyze", ["verify", "--man=no", "/usr/lib/systemd/user/gesture-bridge.service"])
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.output)")

        let remove = try runTool("/usr/bin/dpkg", ["-r", "gesture-bridge"])
        #expect(remove.status == 0, "\(remove.output)")
        for path in Self.paths {
            #expect(!exists(path), "\(path) was left behind")
        }
        #expect(!exists("/usr/share/gesture-bridge") && !exists("/usr/share/doc/gesture-bridge"), "directories left behind")

        // Installed afresh, removed, purged: the entry stays with `dpkg -r` (desktops skip it:
        // its TryExec names a program gone), and goes with the purge.
        let purged = try runTool("/usr/bin/dpkg", ["--purge", "gesture-bridge"])
        #expect(purged.status == 0, "\(purged.output)")
        let again = try runTool("/usr/bin/dpkg", ["-i", deb])
        #expect(again.status == 0 && exists(Self.autostartEntry), "\(again.output)")
        #expect(try runTool("/usr/bin/dpkg", ["-r", "gesture-bridge"]).status == 0)
        #expect(exists(Self.autostartEntry) && !exists("/usr/bin/gesture-bridge"))
        #expect(try runTool("/usr/bin/dpkg", ["--purge", "gesture-bridge"]).status == 0)
        #expect(!exists(Self.autostartEntry), "the purge takes the entry")
        let status = try runTool("/usr/bin/dpkg-query", ["-W", "-f", "${Status}", "gesture-bridge"])
        #expect(!status.output.contains("installed") || status.output.contains("not-installed"), "\(status.output)")
    }
}
