import Foundation
import GestureKit
import Testing
import X11Bridge

@Suite("The volume action on a real PipeWire goes through wpctl", .requiresPipeWire, .serialized)
struct VolumeControlPipeWireTests {
    @Test("PipeWire without its PulseAudio layer: pactl finds nothing, wpctl is chosen: +5% and -5% move the sink, raising stops at 100%")
    func raiseLowerAndClamp() throws {
        let server = try PipeWireServer()
        try server.setVolume(percent: 50)
        let control = VolumeControl(environment: server.clientEnvironment)

        let raised = try VolumeControlTests.apply([.adjust(percent: 5)], with: control)
        #expect(control.tool == .wpctl)
        #expect(try server.volume().percent == 55)
        #expect(VolumeControlTests.levels(raised) == [50, 55])
        #expect(VolumeControlTests.failures(raised).isEmpty)

        _ = try VolumeControlTests.apply([.adjust(percent: -5), .adjust(percent: -10)], with: control)
        #expect(try server.volume().percent == 40)

        try server.setVolume(percent: 97)
        _ = try VolumeControlTests.apply([.adjust(percent: 5)], with: control)
        #expect(try server.volume().percent == 100)
        let again = try VolumeControlTests.apply(Array(repeating: .adjust(percent: 5), count: 4), with: control)
        #expect(try server.volume().percent == 100)
        #expect(VolumeControlTests.levels(again) == [100], "at the ceiling a raise reads and changes nothing")
    }

    @Test("a level, and mute-toggle through wpctl")
    func levelAndMute() throws {
        let server = try PipeWireServer()
        let control = VolumeControl(tools: [.wpctl], environment: server.clientEnvironment)
        _ = try VolumeControlTests.apply([.set(percent: 30)], with: control)
        #expect(try server.volume().percent == 30)
        _ = try VolumeControlTests.apply([.toggleMute], with: control)
        #expect(try server.volume().muted)
        _ = try VolumeControlTests.apply([.unmute], with: control)
        #expect(try !server.volume().muted)
        #expect(try server.volume().percent == 30)
    }

    @Test("through wpctl too: turned up while muted, unmuted, from the level read")
    func raiseUnmutes() throws {
        let server = try PipeWireServer()
        let control = VolumeControl(tools: [.wpctl], environment: server.clientEnvironment)
        _ = try VolumeControlTests.apply([.set(percent: 30), .mute], with: control)
        #expect(try server.volume().muted)
        let raised = try VolumeControlTests.apply([.adjust(percent: 5)], with: control)
        #expect(try server.volume() == (35, false))
        // Read muted first: no level a ring would show (`VolumeControlTests.mutedReadsNoLevel`).
        #expect(raised.first == .muted && VolumeControlTests.levels(raised) == [35], "\(raised)")
    }
}
