import Testing
@testable import X11Bridge

/// Found in review of a week with a Bluetooth tablet: it sleeps after seconds idle and its
/// device goes from X; every time, a binding naming it warned, as of a typo, that no device by
/// that name was connected (and suggested another), dozens of times a day.
@Suite("Warning of bindings naming a device that is not there")
struct MissingDeviceWatchTests {
    static let pen = "Wacom Intuos BT S Pen"
    static let binding = MissingDeviceWatch.Missing(binding: "pen-deep", name: pen, suggestion: "Wacom Intuos BT S Pad")
    static let typo = MissingDeviceWatch.Missing(binding: "touch-deep", name: "ELAN Touchscren", suggestion: "ELAN Touchscreen")

    @Test("a name never seen is warned of at start, not again while nothing changes, again as its nearest name changes")
    func typo() {
        var watch = MissingDeviceWatch()
        #expect(watch.check([Self.typo], connected: ["ELAN Touchscreen"], reportingAll: true) == [Self.typo])
        #expect(watch.check([Self.typo], connected: ["ELAN Touchscreen", "mouse"], reportingAll: false) == [])
        var nearer = Self.typo
        nearer.suggestion = "ELAN Touchscreen Pen"
        #expect(watch.check([nearer], connected: ["ELAN Touchscreen Pen"], reportingAll: false) == [nearer])
        #expect(watch.check([Self.typo], connected: [], reportingAll: true) == [Self.typo], "a reload tells it again")
    }

    @Test("a device that was here and went (asleep, unplugged) is not warned of as it goes, nor after a reload; one never here still is")
    func asleep() {
        var watch = MissingDeviceWatch()
        #expect(watch.check([], connected: [Self.pen, "Wacom Intuos BT S Pad"], reportingAll: true) == [])
        for _ in 0..<5 {
            #expect(watch.check([Self.binding], connected: ["Wacom Intuos BT S Pad"], reportingAll: false) == [])
            #expect(watch.check([], connected: [Self.pen, "Wacom Intuos BT S Pad"], reportingAll: false) == [])
        }
        #expect(watch.check([Self.binding, Self.typo], connected: [], reportingAll: true) == [Self.typo])
    }

    @Test("a device missing at start is warned of; once it has come and gone, no more")
    func cameLate() {
        var watch = MissingDeviceWatch()
        #expect(watch.check([Self.binding], connected: [], reportingAll: true) == [Self.binding])
        #expect(watch.check([], connected: [Self.pen], reportingAll: false) == [])
        #expect(watch.check([Self.binding], connected: [], reportingAll: false) == [])
    }
}
