import Testing
@testable import GestureKit

@Suite("Reloading the bindings")
struct BindingReloadTests {
    static let rightClick = Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.75)),
                                    onStart: [.click(button: 3)])
    static let middleClick = Binding(name: "middle-click", recognizer: .deepPress(.init(threshold: 0.75)),
                                     onStart: [.click(button: 2)])

    @Test("a pen already down finishes with the old bindings; the next touch uses the new ones")
    func reloadMidContact() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        script.replaceBindings([Self.middleClick])
        script.pen.press(to: 0.9)
        script.pen.lift()
        script.pen.down(at: (200, 100), force: 0.1)
        script.pen.press(to: 0.9)
        expectSequence(script.actions, [.click(button: 3, at: (100, 100)), .click(button: 2, at: (200, 100))])
    }
}
