// The built-in default config, compiled into the binary. Its source is config/default.yaml;
// a test fails when the two differ (copy the file's text here when you edit it).
public enum DefaultConfig {
    public static let name = "<built-in default>"

    public static let text = """
# GestureBridge's built-in default config.
#
# Copy it to ~/.config/gesture-bridge/config.yaml (or pass your own with --config) and edit;
# `gesture-bridge check FILE` validates it. Every key is described in docs/config.md.

# A pen or finger press is held back from applications while the bridge decides whether it
# is a gesture. A tap goes on lift, a drag as soon as it moves. A press held still goes as soon
# as its force levels off at an ordinary level (about 0.2 s); while it keeps pressing harder,
# or holds above what an ordinary touch reaches, it stays held, at most `hold-limit` seconds.
# `decision-timeout` is how long a press is held when its force tells nothing (it has not
# changed since touch-down, or no pressure gesture listens).
decision-timeout: 0.5
hold-limit: 8

bindings:
  # Press harder with the pen or on a pressure-sensing touchscreen: right-click there.
  # The application sees the right-click and nothing else (no left click underneath).
  - name: right-click
    gesture: deep-press
    devices: [pen, touch]
    threshold: 0.7        # force, 0..1 of the device's pressure range
    release: 0.5          # the press ends when the force falls below this
    ordinary: 0.35        # a still press that levels off at or below this goes to the application
    slop: 12              # pixels the tip may travel before it counts as a drag
    feedback: [pulse, ring]
    action: {click: right}

  # A volume knob in the top-right corner: put a finger or the pen down on the ring
  # (between 30 and 120 pixels from the point 150 pixels in from the right and top edges)
  # and circle: clockwise raises the volume, one step per 15 degrees. Nothing happens
  # until you have turned 30 degrees, so a tap or a straight drag there is left alone.
  - name: volume
    gesture: knob
    devices: [pen, touch]
    center: [-150, 150]
    inner-radius: 30
    outer-radius: 120
    activation: 30
    step: 15
    clockwise: {key: XF86AudioRaiseVolume}
    counterclockwise: {key: XF86AudioLowerVolume}

  # Touchscreens without pressure: hold a finger still for 0.6 s to right-click.
  # Mice are left alone.
  - name: touch-right-click
    gesture: long-press
    devices: [touch]
    pressure: absent
    duration: 0.6
    feedback: [pulse]
    action: {click: right}
"""
}
