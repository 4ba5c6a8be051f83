import Testing
@testable import GestureKit

@Suite("Timer queue")
struct TimerQueueTests {
    @Test("timers come due in deadline order; equal deadlines in the order they were set")
    func dueInOrder() {
        var queue = TimerQueue<String>()
        queue.set("late", deadline: 2)
        queue.set("first", deadline: 1)
        queue.set("second", deadline: 1)
        #expect(queue.nextDeadline == 1)
        var fired: [String] = []
        while let (_, tag) = queue.popDue(at: 1.5) { fired.append(tag) }
        #expect(fired == ["first", "second"])
        #expect(queue.nextDeadline == 2)
    }

    @Test("setting a timer again moves it; setting it to nil removes it")
    func moveAndRemove() {
        var queue = TimerQueue<String>()
        queue.set("a", deadline: 1)
        queue.set("b", deadline: 2)
        queue.set("a", deadline: 3)
        #expect(queue.popDue(at: 2.5)?.tag == "b")
        queue.set("a", deadline: nil)
        #expect(queue.isEmpty)
    }

    @Test("a timer is not due a moment before its deadline, and is due exactly at it")
    func dueExactly() {
        var queue = TimerQueue<String>()
        queue.set("a", deadline: 0.6)
        #expect(queue.popDue(at: 0.6.nextDown) == nil)
        #expect(queue.popDue(at: 0.6)?.deadline == 0.6)
    }
}
