import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// A deep press's right-click opens a context menu, which takes the pointer with an active
/// grab, and the pen picks an item in it. Found in review: the bridge counted that tap as held
/// back, though its grab could not take it (a passive grab activates only on a master no grab
/// has), and the tap's release, decided ahead of a grabbed press that never came, stayed
/// behind: every later press of the pen was then thought let go while X held it, and a
/// finger's tap made meanwhile reached the bridge's grab instead of the window.
@Suite("Taps into an open menu", .requiresXorg, .serialized)
final class OpenMenuTests: StageSuite {
    /// A deep press with a pen or a finger runs a command: what a locked screen must not let through.
    static let lockedOut = """
        bindings:
          - name: locked-out
            gesture: deep-press
            devices: [pen, touch]
            threshold: 0.7
            action: {command: [true]}
        """

    /// A long press bound to `device`, made into an open menu and held still past its
    /// duration: the menu gets the press alone, no right-click, nothing runs.
    static func expectHeldStillIntoMenu(_ stage: Stage, device: String, press: () throws -> Void, lift: () throws -> Void,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bridge = try stage.bridge(["--verbose"], config: """
            bindings:
              - {name: hold, gesture: long-press, devices: [\(device)], duration: 0.3, action: {click: right}}
            """)
        let menu = try grabbing(stage, title: "menu")
        defer { menu.close() }
        try press()
        usleep(600_000)
        try lift()
        #expect(menu.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the menu got the press: \(menu.recordedEvents)",
                sourceLocation: sourceLocation)
        #expect(try bridge.waitUntilAsleep(quiet: 0.1), sourceLocation: sourceLocation)
        #expect(buttonEvents(3, in: menu.recordedEvents).isEmpty, "no right-click: \(menu.recordedEvents)\n\(bridge.lines)",
                sourceLocation: sourceLocation)
        #expect(bridge.actions.isEmpty, "\(bridge.lines)", sourceLocation: sourceLocation)
        menu.ungrabPointer()
    }

    /// A window holding an active grab of the pointer, as an open menu (`title` "menu": a small
    /// one around (525, 525)) or a screen locker (the whole screen) does.
    static func grabbing(_ stage: Stage, title: String, touches: Bool = false,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> RecorderWindow {
        let frame = title == "menu" ? WindowFrame(x: 450, y: 450, width: 150, height: 150) : nil
        let window = try RecorderWindow(server: stage.server, frame: frame, title: title, takesKeyboardFocus: false)
        #expect(window.grabPointer(touches: touches), "the \(title)'s grab", sourceLocation: sourceLocation)
        return window
    }

    /// A browser's menu (GTK 3's grab takes touches): a finger's tap on an item is the menu's
    /// touch, and the bridge acts on nothing of it. (While such a grab lasts, Xorg reports the
    /// master's button 1 held after the touch ends, with the bridge or without it: looked at in
    /// review of a browser on a touchscreen; the menu's closing lets go of it.)
    @Test("a finger's tap on an open menu whose grab takes touches: the menu gets the touch, nothing acts, and once the menu closes no button is held")
    func fingerTapIntoTouchMenu() throws {
        let bridge = try stage.bridge(["--verbose"])
        let menu = try OpenMenuTests.grabbing(stage, title: "menu", touches: true)
        defer { menu.close() }
        try stage.touch.begin(at: (500, 500), pressure: 0.15)
        usleep(80_000)
        try stage.touch.lift()
        #expect(menu.waitForEvents { $0.contains { $0.kind == .touchEnd } }, "the menu got the touch: \(menu.recordedEvents)")
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        menu.ungrabPointer()
        #expect(stage.buttonsStillHeld() == [], "\(bridge.lines)")
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
    }

    /// A pen tap into a menu: a small window holding an active grab of the pointer while the
    /// tap is made. The menu gets the tap whole, as without the bridge.
    func tapIntoMenu(_ bridge: BridgeProcess, penID: Int) throws {
        let menu = try OpenMenuTests.grabbing(stage, title: "menu")
        defer { menu.close() }
        let before = bridge.lines.decisions.filter { $0.device == penID }.count
        try stage.pen.down(at: (500, 500), pressure: 0.3)
        try stage.pen.up()
        #expect(menu.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the menu got the tap: \(menu.recordedEvents)")
        #expect(buttonEvents(1, in: menu.recordedEvents).map(\.kind) == [.buttonPress, .buttonRelease], "\(menu.recordedEvents)")
        #expect(bridge.waitForLines { $0.decisions.filter { $0.device == penID }.count > before }, "\(bridge.lines)")
        menu.ungrabPointer()
        #expect(try bridge.waitUntilAsleep(quiet: 0.05))
        _ = stage.window.drain()
    }

    @Test("after a pen tap into a menu: a finger's tap lifted while the pen's press is held back, the pen then pressing deep, arrives whole")
    func tapBehindHeldPenAfterMenu() throws {
        let bridge = try stage.bridge(["--verbose"], config: ReplugOwnershipTests.config)
        let touchID = try bridge.deviceID(VirtualTouchscreen.deviceName)
        let penID = try bridge.deviceID(VirtualPen.deviceName)
        try tapIntoMenu(bridge, penID: penID)
        // A contact seen: its watching gesture begins, or fails at once (a touch made while the
        // pen hovers is a palm's, which makes no gesture).
        func seen(_ line: GestureLine, on device: Int) -> Bool {
            line.gesture == "contact" && line.device == device && [.began, .failed].contains(line.state)
        }
        func began(_ device: Int, _ count: Int) -> Bool {
            bridge.waitForLines { $0.gestures.filter { seen($0, on: device) }.count >= count }
        }
        let penBegan = bridge.lines.gestures.filter { seen($0, on: penID) }.count
        try stage.touch.begin(at: (700, 300), pressure: 0.3)
        #expect(began(touchID, 1), "\(bridge.lines)")
        try stage.pen.down(at: (300, 300), pressure: 0.1)
        try stage.pen.press(to: 0.3)
        #expect(began(penID, penBegan + 1), "\(bridge.lines)")
        try stage.touch.end()
        #expect(bridge.ownership { $0.ownership == .replayed && $0.device == touchID } != nil, "\(bridge.lines)")
        try stage.pen.press(to: 0.95)
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == penID && $0.decision == .claim } }, "\(bridge.lines)")
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 && buttonEvents(1, in: $0).count >= 2 },
                "\(stage.window.recordedEvents)\n\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        let left = buttonEvents(1, in: events)
        #expect(left.map(\.kind) == [.buttonPress, .buttonRelease] && left.allSatisfy { Int($0.sourceID) == touchID },
                "the finger's tap: \(events)\n\(bridge.log)")
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        ReplugOwnershipTests.expectNoFault(bridge)
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    @Test("after a pen tap into a menu: the pen's and a finger's deep presses right-click alone, and their taps arrive")
    func asEverAfterMenu() throws {
        let bridge = try stage.bridge(["--verbose"], config: ReplugOwnershipTests.config)
        let penID = try bridge.deviceID(VirtualPen.deviceName)
        try tapIntoMenu(bridge, penID: penID)
        try ReplugOwnershipTests.expectAsEver(stage, bridge, by: .pen)
        try stage.layPenAside(bridge)
        try ReplugOwnershipTests.expectAsEver(stage, bridge, by: .touch)
    }

    /// Found in review: an open menu's active grab of the pointer becomes the owner of a touch
    /// begun on it, and the bridge's touch grab gets nothing of it; yet the engine followed
    /// the touch and claimed it, so the menu got the finger's click and the bridge's
    /// right-click came besides.
    @Test("a finger's deep press into an open menu: the menu gets the finger's press, and no right-click comes besides; then everything as ever")
    func fingerDeepPressIntoMenu() throws {
        let bridge = try stage.bridge(["--verbose"], config: ReplugOwnershipTests.config)
        let touchID = try bridge.deviceID(VirtualTouchscreen.deviceName)
        do {
            let menu = try OpenMenuTests.grabbing(stage, title: "menu")
            defer { menu.close() }
            try stage.touch.begin(at: (500, 500), pressure: 0.1)
            try ReplugOwnershipTests.pressOn(stage, by: .touch)
            #expect(menu.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the menu got the press: \(menu.recordedEvents)")
            #expect(bridge.waitForLines { $0.decisions.contains { $0.device == touchID } }, "\(bridge.lines)")
            #expect(try bridge.waitUntilAsleep(quiet: 0.1))
            #expect(buttonEvents(3, in: menu.recordedEvents).isEmpty, "no right-click: \(menu.recordedEvents)\n\(bridge.lines)")
            #expect(bridge.decisions.filter { $0.device == touchID }.map(\.decision) == [.release], "\(bridge.lines)")
            #expect(bridge.actions.isEmpty, "\(bridge.lines)")
            menu.ungrabPointer()
        }
        _ = stage.window.drain()
        try ReplugOwnershipTests.expectAsEver(stage, bridge, by: .touch)
        try ReplugOwnershipTests.expectAsEver(stage, bridge, by: .pen)
    }

    /// A bridge running `config`, then a screen locker's grab, and under it `press` made with
    /// the pen and then with a finger: the locker gets both presses, and the bridge, having
    /// decided both, acts on nothing. The locker still grabs when it returns.
    func underLocker(config: String, press: (ReplugOwnershipTests.Presser) throws -> Void,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (bridge: BridgeProcess, locker: RecorderWindow) {
        let bridge = try stage.bridge(["--verbose"], config: config)
        let locker = try OpenMenuTests.grabbing(stage, title: "locker", sourceLocation: sourceLocation)
        for presser: ReplugOwnershipTests.Presser in [.pen, .touch] { try press(presser) }
        #expect(locker.waitForEvents { buttonEvents(1, in: $0).count >= 4 }, "the locker got both presses: \(locker.recordedEvents)",
                sourceLocation: sourceLocation)
        #expect(bridge.waitForLines { $0.decisions.count >= 2 }, "\(bridge.lines)", sourceLocation: sourceLocation)
        #expect(try bridge.waitUntilAsleep(quiet: 0.1), sourceLocation: sourceLocation)
        #expect(bridge.actions.isEmpty, "\(bridge.lines)", sourceLocation: sourceLocation)
        return (bridge, locker)
    }

    /// A screen locker (xscreensaver, i3lock) takes the pointer with an active grab as a menu
    /// does: the gestures went on behind it, a bound command ran, a click went into the locker.
    @Test("under a screen locker's grab, a pen's and a finger's deep presses run nothing; the locker gets their presses")
    func lockerGrab() throws {
        let (bridge, locker) = try underLocker(config: OpenMenuTests.lockedOut) { presser in
            try presser.begin(stage, at: (400, 300), force: 0.1)
            try ReplugOwnershipTests.pressOn(stage, by: presser)
        }
        defer { locker.close() }
        #expect(bridge.decisions.map(\.decision) == [.release, .release], "\(bridge.lines)")
    }

    /// Found in review: a press whose first sample is past the threshold was claimed at its
    /// begin and its command run before the bridge could know the locker's grab had the press.
    @Test("under a screen locker's grab, a pen and a finger landing past the threshold run nothing; the locker gets their presses")
    func lockerGrabFirmLanding() throws {
        let (bridge, locker) = try underLocker(config: OpenMenuTests.lockedOut) { presser in
            try presser.begin(stage, at: (400, 300), force: 0.95)
            usleep(100_000)
            try presser.lift(stage)
        }
        defer { locker.close() }
        #expect(buttonEvents(1, in: locker.recordedEvents).map(\.kind) == [.buttonPress, .buttonRelease, .buttonPress, .buttonRelease],
                "the locker's presses whole: \(locker.recordedEvents)")
        locker.ungrabPointer()
        // Unlocked, the same landing runs its command.
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        try stage.pen.down(at: (400, 300), pressure: 0.95)
        usleep(100_000)
        try stage.pen.up()
        #expect(bridge.waitForLines { !$0.actions.isEmpty }, "the landing's command: \(bridge.lines)")
    }

    /// Found in review: a binding that only watches a contact (`pressure-thresholds`) went on
    /// behind the locker's grab after the owning ones had let the contact go: each threshold
    /// its force crossed sent a key into the locker's password field.
    @Test("under a screen locker's grab, a watching binding beside a deep press acts on nothing; unlocked, it does")
    func lockerGrabWatching() throws {
        let config = OpenMenuTests.lockedOut + """

              - name: watching
                gesture: pressure-thresholds
                devices: [pen, touch]
                thresholds: [0.4, 0.8]
                up: {command: [true]}
            """
        let (bridge, locker) = try underLocker(config: config) { presser in
            try presser.begin(stage, at: (400, 300), force: 0.1)
            for force in [0.3, 0.5, 0.7, 0.9] {
                usleep(20_000)
                try presser.press(stage, to: force)
            }
            try presser.lift(stage)
        }
        defer { locker.close() }
        locker.ungrabPointer()
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        usleep(20_000)
        try stage.pen.press(to: 0.5)
        usleep(20_000)
        try stage.pen.up()
        #expect(bridge.waitForLines { $0.actions.contains { $0.gesture == "watching" } }, "the watching binding, unlocked: \(bridge.lines)")
    }
}

/// Found in review: a contact's force ring was drawn at its first sample, before anything
/// knew that a screen locker's grab had its press or touch: every touch flashed a ring over
/// the locker.
@Suite("Feedback under a screen locker", .requiresXorg, .serialized)
final class LockerFeedbackTests: StageSuite {
    /// The overlay's windows seen over `seconds`, looked at every 10 ms while `stimulus` holds.
    func overlaySeen(_ screen: OverlayWindowLister, for seconds: Double, after stimulus: () throws -> Void) rethrows -> [String] {
        let start = Date()
        try stimulus()
        var seen: [String] = []
        while Date().timeIntervalSince(start) < seconds {
            let frames = screen.visibleOverlayFrames()
            if !frames.isEmpty { seen.append("\(frames)") }
            usleep(10_000)
        }
        return seen
    }

    @Test("under a screen locker's grab, a pen or a finger held on the screen draws no force ring over the locker; without it, the ring shows")
    func noRingOverALocker() throws {
        let bridge = try stage.bridge(config: """
            bindings:
              - {name: press, gesture: deep-press, devices: [pen, touch], threshold: 0.7, feedback: [pulse, ring], action: {click: right}}
            """)
        let screen = try #require(OverlayWindowLister(displayName: stage.server.displayName))
        defer { screen.close() }
        let locker = try OpenMenuTests.grabbing(stage, title: "locker")
        let pen = try overlaySeen(screen, for: 0.5) { try stage.pen.down(at: (400, 300), pressure: 0.3) }
        try stage.pen.up()
        let touch = try overlaySeen(screen, for: 0.5) { try stage.touch.begin(at: (500, 300), pressure: 0.3) }
        try stage.touch.end()
        #expect(pen.isEmpty, "a ring over the locker: \(pen.prefix(3))")
        #expect(touch.isEmpty, "a ring over the locker: \(touch.prefix(3))")
        #expect(bridge.waitForLines { $0.decisions.count >= 2 }, "\(bridge.lines)")
        #expect(locker.waitForEvents { buttonEvents(1, in: $0).count >= 4 }, "the locker got both: \(locker.recordedEvents)")
        locker.ungrabPointer()
        locker.close()
        // Unlocked, the same press shows its ring: the look above could see one.
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        let shown = try overlaySeen(screen, for: 0.5) { try stage.pen.down(at: (400, 300), pressure: 0.3) }
        try stage.pen.up()
        #expect(!shown.isEmpty, "the ring of a press the bridge holds")
    }
}

/// Found in review: the safety net's ReplayDevice of a press another grab took moves the
/// master's thaw mark, so a contact whose raw press the server made before it is thought held
/// back by the bridge and is never handed over.
@Suite("Taps into an open menu, the bridge busy", .requiresXorg, .serialized)
final class OpenMenuBusyTests: StageSuite {
    @Test("under a screen locker's grab, with the bridge stopped a moment: a pen tap, then a deep press still down when it runs, run nothing")
    func lockerGrabBridgeBusy() throws {
        let bridge = try stage.bridge(["--verbose"], config: OpenMenuTests.lockedOut)
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let locker = try OpenMenuTests.grabbing(stage, title: "locker")
        defer { locker.close() }
        bridge.child.kill(signal: SIGSTOP)
        try stage.pen.down(at: (400, 300), pressure: 0.3)
        try stage.pen.move(to: (401, 300))
        try stage.pen.up()
        try stage.pen.down(at: (420, 300), pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.pen.press(to: force)
        }
        bridge.child.kill(signal: SIGCONT)
        #expect(bridge.waitForLines { $0.decisions.filter { $0.device == pen }.count >= 2 }, "\(bridge.lines)")
        try stage.pen.press(to: 0.5)
        try stage.pen.up()
        #expect(locker.waitForEvents { buttonEvents(1, in: $0).count >= 4 }, "the locker got both presses: \(locker.recordedEvents)")
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        #expect(bridge.decisions.map(\.decision) == [.release, .release], "\(bridge.lines)")
        #expect(buttonEvents(3, in: locker.recordedEvents).isEmpty, "\(locker.recordedEvents)")
    }
}

/// Found in review of the day's change: README said a pen's deep press made wholly while the
/// bridge could not run, under a locker's grab, still acted; its claim now waits for the
/// grabbed press that never comes, and is taken back at the lift.
@Suite("A deep press made wholly while the bridge is stopped, under a locker", .requiresXorg, .serialized)
final class LockerStalledPressTests: StageSuite {
    @Test("under a screen locker's grab, a pen's deep press made and lifted while the bridge is stopped runs nothing")
    func wholePressWhileStopped() throws {
        let bridge = try stage.bridge(["--verbose"], config: OpenMenuTests.lockedOut)
        let locker = try OpenMenuTests.grabbing(stage, title: "locker")
        defer { locker.close() }
        bridge.child.kill(signal: SIGSTOP)
        try stage.pen.down(at: (420, 300), pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.pen.press(to: force)
        }
        try stage.pen.up()
        bridge.child.kill(signal: SIGCONT)
        #expect(locker.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the locker got the press: \(locker.recordedEvents)")
        #expect(bridge.waitForLines { !$0.decisions.isEmpty }, "\(bridge.lines)")
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        #expect(buttonEvents(3, in: locker.recordedEvents).isEmpty, "\(locker.recordedEvents)")
    }
}

/// Found in review: the rule for a press another grab took waits for the contact's next raw
/// event, and a mouse held still sends none: its long press fires on its timer first.
@Suite("A mouse held still in an open menu", .requiresXorg, .serialized)
final class OpenMenuMouseTests: MouseStageSuite {
    @Test("a bound mouse's long press held still in an open menu: the menu gets the press alone, no right-click, nothing runs")
    func mouseLongPressIntoMenu() throws {
        let mouse = try #require(stage.server.mouse)
        try OpenMenuTests.expectHeldStillIntoMenu(stage, device: "mouse", press: { try mouse.press() }, lift: { try mouse.release() })
    }
}

/// Found in review: a finger held still sends no event after its begin, so its long press
/// fired on its timer before anything asked whether the touch was the bridge's.
@Suite("A finger held still in an open menu", .requiresXorg, .serialized)
final class OpenMenuHeldFingerTests: StageSuite {
    @Test("a finger's long press held still on an open menu: the menu gets the touch's press alone, no right-click, nothing runs")
    func fingerLongPressIntoMenu() throws {
        try OpenMenuTests.expectHeldStillIntoMenu(stage, device: "touch", press: { try stage.touch.begin(at: (500, 500), pressure: 0.2) },
                                                  lift: { try stage.touch.end() })
    }

    /// Found in review: a second finger's begin, come through the bridge's grab, shows that the
    /// first finger's went elsewhere (the menu's grab); the touch was forgotten, but the engine
    /// kept the contact, and its long press fired into the menu.
    @Test("a finger held still on an open menu while a second finger touches and moves elsewhere: the menu gets the press alone, nothing runs")
    func heldBesideASecondFinger() throws {
        let bridge = try stage.bridge(["--verbose"], config: """
            bindings:
              - {name: hold, gesture: long-press, devices: [touch], duration: 0.3, action: {click: right}}
            """)
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        let menu = try OpenMenuTests.grabbing(stage, title: "menu")
        defer { menu.close() }
        try stage.touch.begin(id: 0, at: (500, 500), pressure: 0.2)
        try stage.touch.begin(id: 1, at: (800, 200), pressure: 0.2)
        try stage.touch.update(id: 1, to: (900, 200))
        usleep(600_000)
        #expect(bridge.waitForLines { $0.decisions.filter { $0.device == touch }.count >= 2 }, "\(bridge.lines)")
        try stage.touch.end(id: 1)
        try stage.touch.end(id: 0)
        #expect(menu.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the menu got the press: \(menu.recordedEvents)")
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        #expect(buttonEvents(3, in: menu.recordedEvents).isEmpty, "no right-click: \(menu.recordedEvents)\n\(bridge.lines)")
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        menu.ungrabPointer()
    }
}

