@testable import GestureKit

/// An action the engine fired and where: what the X side would do on screen.
struct PlacedAction: Hashable, CustomStringConvertible {
    var action: Action
    var position: Point

    init(_ action: Action, at spot: Spot) {
        self.action = action
        position = Point(spot)
    }

    init(_ event: ActionEvent) {
        action = event.action
        position = event.position
    }

    static func click(button: Int, at spot: Spot) -> PlacedAction { PlacedAction(.click(button: button), at: spot) }
    static func press(button: Int, at spot: Spot) -> PlacedAction { PlacedAction(.press(button: button), at: spot) }
    static func release(button: Int, at spot: Spot) -> PlacedAction { PlacedAction(.release(button: button), at: spot) }
    static func key(_ combo: String, at spot: Spot) -> PlacedAction {
        PlacedAction(.key(KeyCombo(keys: combo.split(separator: "+").map(String.init))), at: spot)
    }

    var description: String { "\(action) at \(position.scriptDescription)" }
}
