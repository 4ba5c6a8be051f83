import Testing
import XorgTestSupport

@Suite struct XorgAvailabilityTests {
    @Test func missingXorgIsASkipWithItsReason() {
        let reason = XorgAvailability.skipReason(unavailableReason: "no dummy video driver", environment: [:])
        #expect(reason?.contains("no dummy video driver") == true)
        #expect(reason?.contains(XorgAvailability.requirementVariable) == true)
    }

    @Test func missingXorgIsNoSkipWhenRequired() {
        let environment = [XorgAvailability.requirementVariable: "1"]
        #expect(XorgAvailability.skipReason(unavailableReason: "no dummy video driver", environment: environment) == nil)
    }

    @Test func availableXorgIsNeverSkipped() {
        #expect(XorgAvailability.skipReason(unavailableReason: nil, environment: [:]) == nil)
    }

    /// CI requires Xorg: there, a machine without it fails here with the reason, once, clearly.
    @Test(.enabled(if: XorgAvailability.isRequired, "\(XorgAvailability.requirementVariable) is not set"))
    func xorgIsAvailableWhereRequired() {
        #expect(XorgAvailability.unavailableReason == nil, "\(XorgAvailability.unavailableReason ?? "")")
    }
}
