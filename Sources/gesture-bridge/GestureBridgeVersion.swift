/// The version `gesture-bridge --version` prints: raised with each release, as the changelog says.
enum GestureBridgeVersion {
    static let current = "0.13.0"
}
