import ArgumentParser

@main
struct GestureBridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-bridge",
        abstract: "Pressure and knob gestures for X11: deep press to right-click, circle to turn the volume.",
        discussion: """
            GestureBridge listens to pens, touchscreens and mice through XInput2, recognizes \
            gestures (deep press, squeeze, pressure thresholds, a one-finger knob, long press) \
            and turns them into clicks, keys, scrolling or commands through XTest.

            Start with `gesture-bridge run`: it uses the built-in default config unless you \
            give one with --config. Tune thresholds with `record` and `analyze`, try a config \
            on a recording with `replay`, and validate it with `check`.
            """,
        subcommands: [Run.self, Devices.self, Record.self, Replay.self, Analyze.self, Check.self, PrintConfig.self, Doctor.self]
    )
}
