/// The version `gesture-bridge --version` prints, and the package's (`make deb`): raised with
/// every change a person or a package manager must be able to tell apart (a file format, a
/// default, a command's behaviour), or a newer package installs as "already the newest".
/// 0.15.0: a held press judged through a busy machine's stalls, drag locks that outlive a
/// device going away, priorities for the journal.
/// 0.16.0: a trembling press held while it climbs, buttons held by other XTest clients left
/// alone (the bridge's own marked on the root window), on-screen keyboards and drawing
/// programs left alone by the default config's three bindings.
enum GestureBridgeVersion {
    static let current = "0.16.0"
}
