import Foundation
import Glibc
import GestureKit
import Testing
import X11Bridge

@Suite("What a performer holds, and the commands it runs")
struct ActionTests {
    /// Runs `body` with a folder of its own under the temporary directory, removed after.
    static func withScratchDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    /// A `press: 2` drag's gesture on the pen's contact, and on a finger's.
    static let pen = HeldInputs.Holder(ActionEvent(time: 0, gesture: "drag", contact: ContactKey(device: 6, contact: 0),
                                                   action: .press(button: 2), position: Point(x: 0, y: 0)))
    static let finger = HeldInputs.Holder(ActionEvent(time: 0, gesture: "drag", contact: ContactKey(device: 7, contact: 1),
                                                      action: .press(button: 2), position: Point(x: 0, y: 0)))

    @Test("held inputs are let go of in reverse order, each once")
    func heldOrder() {
        var held = HeldInputs()
        let pressed = [held.press(.keycode(37), by: Self.pen), held.press(.keycode(52), by: Self.pen),
                       held.press(.keycode(37), by: Self.pen), held.press(.button(2), by: Self.pen)]
        #expect(pressed == [true, true, false, true])
        let released = [held.release(.keycode(52), by: Self.pen), held.release(.keycode(52), by: Self.pen)]
        #expect(released == [true, false])
        let letGo = held.takeAllForRelease()
        #expect(letGo == [.button(2), .keycode(37)])
        #expect(held.isEmpty)
    }

    @Test("a button two gestures hold is pressed once and released once, when the last lets go; one gesture's second press needs no second release")
    func heldByTwo() {
        var held = HeldInputs()
        #expect([held.press(.button(2), by: Self.pen), held.press(.button(2), by: Self.finger)] == [true, false])
        #expect(held.release(.button(2), by: Self.pen) == false)
        #expect(held.contains(.button(2)))
        #expect(held.release(.button(2), by: Self.finger) == true)
        #expect(held.isEmpty && held.release(.button(2), by: Self.finger) == false)
        // A pressure-thresholds binding pressing at each threshold crossed, released once.
        #expect([held.press(.button(1), by: Self.pen), held.press(.button(1), by: Self.pen)] == [true, false])
        #expect(held.release(.button(1), by: Self.pen) == true)
        #expect(held.isEmpty)
    }

    @Test("a release from a gesture that holds nothing lets go for all; a click of a held button forgets it")
    func strayRelease() {
        var held = HeldInputs()
        held.press(.button(2), by: Self.pen)
        #expect(held.release(.button(2), by: Self.finger) == true)
        #expect(held.isEmpty)
        held.press(.button(2), by: Self.pen)
        held.press(.button(2), by: Self.finger)
        held.forget(.button(2))
        #expect(held.isEmpty && held.takeAllForRelease().isEmpty)
    }

    @Test("a command's arguments reach it as written: no shell splits or interprets them")
    func noShell() throws {
        try Self.withScratchDirectory { directory in
            let name = directory.appendingPathComponent("a b; rm -rf $HOME `x`").path
            let launcher = CommandLauncher()
            try launcher.launch(["touch", name], for: "note", now: 0)
            #expect(launcher.runningCount == 1)
            try waitForExit(launcher)
            #expect(launcher.runningCount == 0)
            #expect(FileManager.default.fileExists(atPath: name))
        }
    }

    @Test("a command that does not exist is an error naming it")
    func missingProgram() {
        let launcher = CommandLauncher()
        do {
            try launcher.launch(["gesture-bridge-no-such-program"], for: "note", now: 0)
            Issue.record("launching a missing program succeeded")
        } catch {
            #expect(error.message.contains("gesture-bridge-no-such-program"))
            #expect(error.message.contains("not found"))
        }
        #expect(throws: ActionFailure.self) { try launcher.launch([], for: "note", now: 0) }
    }

    @Test("at most 32 commands run at once: the next is an action that failed, and one starts again once one ends")
    func runningLimit() throws {
        try Self.withScratchDirectory { directory in
            let go = directory.appendingPathComponent("go").path
            // Each runs until `go` exists, as a command that never ends would.
            let waiting = ["sh", "-c", "while [ ! -e \"$1\" ]; do sleep 0.05; done", "sh", go]
            let launcher = CommandLauncher()
            for _ in 0..<CommandLauncher.runningLimit { try launcher.launch(waiting, for: "note", now: 0) }
            #expect(launcher.runningCount == 32)
            // Found in review of a machine short of resources: the refusal named none of them.
            let refusal = #expect(throws: ActionFailure.self) { try launcher.launch(["true"], for: "right-click", now: 0) }
            #expect(refusal?.message.contains("32 of note (sh)") == true && refusal?.message.contains("`kill ") == true,
                    "\(refusal?.message ?? "")")
            #expect(launcher.runningCount == 32)
            #expect(FileManager.default.createFile(atPath: go, contents: nil))
            try waitForExit(launcher)
            #expect(launcher.runningCount == 0)
            try launcher.launch(["true"], for: "note", now: 0)
            #expect(launcher.runningCount == 1)
            try waitForExit(launcher)
            #expect(launcher.runningCount == 0)
        }
    }

    @Test("a command that fails or is killed is reported with how it ended; one that succeeds is not")
    func failedCommand() throws {
        let reports = ReportLog()
        let launcher = CommandLauncher { reports.failures.append($0) }
        try launcher.launch(["true"], for: "note", now: 0)
        try launcher.launch(["sh", "-c", "exit 3"], for: "save", now: 0)
        try launcher.launch(["sh", "-c", "kill -TERM $$"], for: "quit", now: 0)
        try waitForExit(launcher)
        #expect(reports.failures.count == 2, "\(reports.failures)")
        let exited = try #require(reports.failures.first { $0.binding == "save" })
        #expect(exited.argv == ["sh", "-c", "exit 3"] && exited.exit == .exited(code: 3), "\(exited)")
        #expect(exited.description.hasPrefix("command sh (pid ") && exited.description.hasSuffix("exited with status 3"))
        let killed = try #require(reports.failures.first { $0.binding == "quit" })
        #expect(killed.argv == ["sh", "-c", "kill -TERM $$"] && killed.exit == .killed(signal: SIGTERM), "\(killed)")
    }

    private final class ReportLog {
        var failures: [CommandFailure] = []
    }

    /// Waits on the launcher's descriptors as the event loop does, without blocking on the child.
    private func waitForExit(_ launcher: CommandLauncher) throws {
        let deadline = Date().addingTimeInterval(5)
        while launcher.runningCount > 0, Date() < deadline {
            if launcher.descriptors.isEmpty {
                launcher.tick(now: .infinity)
                usleep(10_000)
                continue
            }
            var fds = launcher.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            for entry in fds where entry.revents != 0 { launcher.descriptorReady(entry.fd) }
        }
    }
}

@Suite("Runtime plumbing")
struct RuntimePlumbingTests {
    @Test("a closed output pipe is a write failure, not a death by SIGPIPE")
    func closedPipe() {
        // The bridge blocks SIGPIPE in every thread; here only this one, and the SIGPIPE the
        // write leaves pending is taken before the mask goes back, or it would kill the tests.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var none = timespec()
            while sigtimedwait(&pipeSignal, nil, &none) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let writer = LineWriter(descriptor: ends[1], ownsDescriptor: true)
        #expect(!writer.write("{\"t\":0}"))
        #expect(writer.failure != nil)
        #expect(!writer.write("later lines are dropped"))
    }

    @Test("a signal arrives as data on the descriptor")
    func signalDescriptor() throws {
        let signals = try SignalDescriptor(signals: [SIGUSR1])
        #expect(signals.read().isEmpty)
        raise(SIGUSR1)
        let read = signals.read()
        #expect(read.map(\.number) == [SIGUSR1])
        #expect(read.first?.sender == getpid() && read.first?.sentByKernel == false, "sent by this process: \(read)")
    }

    /// Found in CI (`StoppedBridgeTests.stoppedTwiceAtOnce`): a second Ctrl-Z sent just after
    /// the first came in the same read, and the bridge stopped twice, needing two `fg`s.
    @Test("a signal sent again while the descriptor is read is read once: two Ctrl-Z at once stop the bridge once")
    func signalReadOnce() {
        #expect(SignalDescriptor.coalesced([SIGTSTP, SIGTSTP]) == [SIGTSTP])
        #expect(SignalDescriptor.coalesced([SIGHUP, SIGTSTP, SIGHUP, SIGINT, SIGTSTP]) == [SIGHUP, SIGTSTP, SIGINT])
        #expect(SignalDescriptor.coalesced([]).isEmpty)
    }

    @Test("the monotonic clock starts near zero and moves forward")
    func clock() {
        let clock = MonotonicClock()
        let first = clock.now
        usleep(2_000)
        #expect(first >= 0 && first < 1)
        #expect(clock.now > first)
    }
}
