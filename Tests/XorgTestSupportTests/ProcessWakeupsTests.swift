import Foundation
import Testing
import XorgTestSupport

/// The end-to-end tests count a bridge's wakeups from the moment it sleeps. Found when a
/// wakeup count failed on a loaded CI machine (some 20 test servers and bridges on two cores):
/// a process that waits for a core wakes no more either, and was taken for asleep.
@Suite struct ProcessWakeupsTests {
    /// `command` run by the shell until the test's end.
    func running(_ command: String, _ body: (ProcessWakeups) throws -> Void) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        defer {
            // Not `terminate()`: its SIGTERM left both commands running here.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try body(ProcessWakeups(pid: process.processIdentifier))
    }

    @Test("a process that never stops running is never asleep, however seldom it is switched out")
    func busyIsNotAsleep() throws {
        try running("while :; do :; done") { process throws in
            #expect(try !process.isSleeping())
            #expect(try !process.waitUntilAsleep(quiet: 0.2, timeout: 1, interval: 10_000))
        }
    }

    @Test("a process waiting on a timer is asleep")
    func sleepingIsAsleep() throws {
        try running("exec sleep 30") { process throws in
            #expect(try process.waitUntilAsleep(quiet: 0.2, timeout: 5, interval: 10_000))
            #expect(try process.isSleeping())
        }
    }
}
