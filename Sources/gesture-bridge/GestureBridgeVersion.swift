/// The version `gesture-bridge --version` prints, and the package's (`make deb`): raised with
/// every change a person or a package manager must be able to tell apart (a file format, a
/// default, a command's behaviour), or a newer package installs as "already the newest".
/// 0.14.0: learned state written as version 2, configs that loaded kept for a start on a
/// broken file, knobs where a mapped device reaches, left-handed button maps.
enum GestureBridgeVersion {
    static let current = "0.14.0"
}
