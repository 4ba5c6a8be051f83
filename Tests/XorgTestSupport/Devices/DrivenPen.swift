/// A pen a test drives, whether through the inputtest driver (`VirtualPen`) or as a kernel
/// device under a real X driver (`RealDriverPen`): what follows from its tip and position is
/// the same for both.
public protocol DrivenPen: AnyObject {
    var position: PixelPoint? { get }
    var isTipDown: Bool { get }
    /// Puts the tip down at `position` with `pressure` (0...1 of the device's range).
    func down(at position: PixelPoint, pressure: Double) throws
    /// Moves to `position`; the pressure stays as it was unless given (0 while hovering).
    func move(to position: PixelPoint, pressure: Double?) throws
}

extension DrivenPen {
    /// Changes the pressure where the pen is, without moving (putting the tip down first if it
    /// is up).
    public func press(to pressure: Double) throws {
        let position = self.position ?? (0, 0)
        if isTipDown {
            try move(to: position, pressure: pressure)
        } else {
            try down(at: position, pressure: pressure)
        }
    }
}
