import Testing
@testable import X11Bridge

@Suite("Touch begins: which touch a press the server made from a touch belongs to")
struct TouchBeginsTests {
    @Test("a press names the touch of its device that began at its timestamp")
    func matchesDeviceAndStamp() {
        var begins = TouchBegins()
        begins.began(device: 7, touch: 1, stamp: 1000)
        begins.began(device: 9, touch: 4, stamp: 1005)
        begins.began(device: 7, touch: 2, stamp: 1005)
        #expect(begins.touch(of: 7, begunAt: 1000) == 1)
        #expect(begins.touch(of: 7, begunAt: 1005) == 2)
        #expect(begins.touch(of: 9, begunAt: 1005) == 4)
        // No touch of that device began then: a press of a touch the bridge never saw begin.
        #expect(begins.touch(of: 7, begunAt: 1001) == nil)
        #expect(begins.touch(of: 8, begunAt: 1000) == nil)
    }

    @Test("only the latest begins are kept; of two at one timestamp, the first (the one that emulates the pointer)")
    func keepsTheLatest() {
        var begins = TouchBegins()
        for touch in 0..<(TouchBegins.kept + 4) {
            begins.began(device: 7, touch: touch, stamp: UInt(100 + touch))
        }
        #expect(begins.touch(of: 7, begunAt: 100) == nil)
        #expect(begins.touch(of: 7, begunAt: 103) == nil)
        #expect(begins.touch(of: 7, begunAt: 104) == 4)
        #expect(begins.touch(of: 7, begunAt: UInt(100 + TouchBegins.kept + 3)) == TouchBegins.kept + 3)
        begins.began(device: 7, touch: 99, stamp: 500)
        begins.began(device: 7, touch: 100, stamp: 500)
        #expect(begins.touch(of: 7, begunAt: 500) == 99)
    }
}
