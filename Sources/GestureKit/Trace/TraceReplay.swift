/// Runs a trace through the engine exactly as the live bridge would: same engine, same
/// timers, with the trace's times as the clock.
public enum TraceReplay {
    /// `learning`: where learning starts (nothing, or a state file's); never the user's own.
    public static func run(_ trace: Trace, configuration: BindingSet, learning: PressLearning = PressLearning()) -> [EngineOutput] {
        var replayer = TraceReplayer(header: trace.header, configuration: configuration, learning: learning)
        var outputs: [EngineOutput] = []
        outputs.reserveCapacity(trace.events.count / 4)
        for event in trace.events {
            replayer.handle(event, into: &outputs)
        }
        replayer.finish(into: &outputs)
        return outputs
    }
}

/// A replay fed one event at a time, for a trace read as it goes: the same outputs as
/// `TraceReplay.run`, without holding the events.
public struct TraceReplayer {
    private var engine: GestureEngine
    private var lastTime: Double?
    /// The devices as the header declares them.
    private let declared: [Int: InputDevice]
    /// A declared pressure axis that never moves counts as none, as in the live bridge.
    private var liveness = PressureLiveness()

    public init(header: TraceHeader, configuration: BindingSet, learning: PressLearning = PressLearning()) {
        engine = GestureEngine(configuration: configuration, devices: header.devices, screen: header.screen ?? .fallback,
                               learning: learning)
        declared = Dictionary(header.devices.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// What the replay learned so far.
    public var learning: PressLearning { engine.learning }

    public mutating func handle(_ event: ContactEvent, into outputs: inout [EngineOutput]) {
        let change = liveness.observe(event) { [declared] in declared[event.device]?.pressure }
        engine.handle(event, into: &outputs)
        lastTime = event.time
        // From the device's next contact on, as the live bridge does.
        switch change {
        case .dead(let id)?, .alive(let id)?:
            guard var device = declared[id] else { break }
            if liveness.isDead(id) { device.pressure = nil }
            engine.addDevice(device)
        case nil:
            break
        }
    }

    /// Timers due by the end of the recording still fire (a long press held to the end).
    public mutating func finish(into outputs: inout [EngineOutput]) {
        if let lastTime {
            engine.advance(to: lastTime, into: &outputs)
        }
    }
}
