/// The version `gesture-bridge --version` prints, and the package's (`make deb`): raised with
/// every change a person or a package manager must be able to tell apart (a file format, a
/// default, a command's behaviour), or a newer package installs as "already the newest".
/// 0.15.0: a held press judged through a busy machine's stalls, drag locks that outlive a
/// device going away, priorities for the journal.
/// 0.16.0: a trembling press held while it climbs, buttons held by other XTest clients left
/// alone (the bridge's own marked on the root window), on-screen keyboards and drawing
/// programs left alone by the default config's three bindings.
/// 0.17.0: nothing acts behind another program's grab (a screen locker), a hysteresis of 0.05
/// for pressure-thresholds by default, command-failed naming its binding and argv, key actions
/// beyond two waiting on Slow Keys dropped, a command written as for a shell warned of by
/// `check`, earlier learned-state files with longer windows read.
/// 0.18.0: output and log lines written off the event loop (a full disk no longer stops
/// `run`), kept configs found by the file's one spelling, replay taking a pressure that never
/// moves for none, calibrate choosing the device a deep press listens to.
/// 0.19.0: watching gestures' actions waiting with the press an owning one holds, and none at
/// all from a contact a gesture wins or a palm's; force steps from and back to nothing; a deep
/// press's release at least half its threshold; the touch view redrawn once a frame.
/// 0.20.0: a pressure stuck at any one value taken for none, presses with Alt or Super left to
/// the window manager, Ctrl-\ a stop, nohup keeping the bridge past its terminal, Wayland told
/// by its compositor's socket and Xwayland's devices, writes on threads made as needed (the
/// process limit no longer freezes the bridge).
enum GestureBridgeVersion {
    static let current = "0.20.0"
}
