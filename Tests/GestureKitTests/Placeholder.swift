import Testing
@testable import GestureKit
@Test func placeholder() { #expect(Bool(true)) }
