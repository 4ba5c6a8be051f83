import Foundation
import Glibc
import Testing
import XorgTestSupport

/// Buttons another program holds through XTest: an on-screen keyboard's drag, a MouseKeys
/// button lock, `xdotool mousedown`. X's XTEST pointer is every XTest client's, the bridge's
/// too, so a button one holds is down for all; the bridge hears none of it and asks the server.
/// Found by a review of a day with accessibility tools.
@Suite("Buttons another program holds through XTest", .requiresXorg, .serialized)
final class OtherXTestClientsTests: StageSuite {
    /// Another program holding `button` down through XTest, once the window has seen it; the
    /// window's events drained after.
    func anotherProgramHolding(_ button: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws -> FaultTests.XTestTool {
        let tool = try FaultTests.XTestTool(stage.server)
        tool.button(UInt32(button), down: true)
        #expect(stage.window.waitForEvents { !buttonEvents(button, in: $0).isEmpty }, sourceLocation: sourceLocation)
        stage.window.drain()
        return tool
    }

    /// Down at `point` with 0.1, then on through 0.4, 0.8 and 0.95 10 ms apart, left down.
    func pressDeep(by presser: ReplugOwnershipTests.Presser, at point: PixelPoint) throws {
        try presser.begin(stage, at: point, force: 0.1)
        for force in [0.4, 0.8, 0.95] {
            usleep(10_000)
            try presser.press(stage, to: force)
        }
    }

    /// A finger's deep press while another program holds the right button: X drops the bridge's
    /// press of a button the device holds, and its release let go of the other's lock, a
    /// context menu never coming. It is a failed action now, said, and the lock stays.
    @Test("a finger's deep press while another program holds the right button through XTest: the action fails, said, and the program's button stays held")
    func rightClickWhileAnotherHoldsRight() throws {
        let bridge = try stage.bridge()
        let tool = try anotherProgramHolding(3)
        try pressDeep(by: .touch, at: (640, 200))
        #expect(bridge.waitForEvents(.actionFailed), "\(bridge.lines)")
        try stage.touch.end()
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).isEmpty, "the program's lock is not let go of: \(events)")
        #expect(stage.window.pointerState()?.buttonsHeld == [3])
        tool.button(3, down: false)
        #expect(stage.buttonsStillHeld() == [])
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }

    /// A pen's press while another program holds the left button is not the master's first
    /// button: X activates no grab for it, and the bridge, awaiting a grabbed press that never
    /// comes, finds the master's button down at the pen's first move and hands the pen over
    /// (`takenByAnotherGrab`). A review saw a right-click and the program's drag let go of at the
    /// pen while it was down, once, with MouseKeys' lock; this holds the case as it stands.
    @Test("a pen's deep press while another program holds the left button through XTest: the press is the window's, as without the bridge: no right-click, nothing let go of while the pen is down")
    func penPressWhileAnotherHoldsLeft() throws {
        let bridge = try stage.bridge()
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let tool = try anotherProgramHolding(1)
        try pressDeep(by: .pen, at: (600, 300))
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == pen } }, "\(bridge.lines)")
        // While the pen is down, the program's drag goes on, and nothing else comes.
        let whileDown = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(1, in: whileDown).isEmpty, "\(whileDown)")
        #expect(buttonEvents(3, in: whileDown).isEmpty, "no right-click: \(whileDown)")
        #expect(stage.window.pointerState()?.buttonsHeld == [1])
        try stage.pen.up()
        let events = try stage.eventsUntilKeyTapped()
        #expect(bridge.decisions.filter { $0.device == pen }.map(\.reason) == [.anotherButton], "\(bridge.lines)")
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        #expect(buttonEvents(3, in: events).isEmpty, "no right-click: \(events)")
        // The pen's lift lets go of the master's left button, the program's drag with it, as
        // without the bridge (X keeps one state of each button per master).
        tool.button(1, down: false)
        #expect(stage.buttonsStillHeld() == [])
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }
}
