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
    /// Each contact's pressure last given, while it is down.
    private var lastPressure: [ContactKey: Double] = [:]

    public init(header: TraceHeader, configuration: BindingSet, learning: PressLearning = PressLearning()) {
        engine = GestureEngine(configuration: configuration, devices: header.devices, screen: header.screen ?? .fallback,
                               learning: learning)
    }

    /// What the replay learned so far.
    public var learning: PressLearning { engine.learning }

    public mutating func handle(_ event: ContactEvent, into outputs: inout [EngineOutput]) {
        var event = event
        let key = ContactKey(device: event.device, contact: event.contact)
        // A move of a device with pressure that gives none keeps the pressure it had, as X
        // leaves out a valuator that did not change (found in review: a hand-written trace
        // read it as 0, ending a deep press mid-hold).
        switch (event.phase, event.pressure) {
        case (.begin, let pressure?), (.move, let pressure?):
            lastPressure[key] = pressure
        case (.move, nil):
            event.pressure = lastPressure[key]
        case (.end, _), (.cancel, _):
            lastPressure[key] = nil
        case (.begin, nil), (.hover, _):
            break
        }
        engine.handle(event, into: &outputs)
        lastTime = event.time
    }

    /// Timers due by the end of the recording still fire (a long press held to the end).
    public mutating func finish(into outputs: inout [EngineOutput]) {
        if let lastTime {
            engine.advance(to: lastTime, into: &outputs)
        }
    }
}
