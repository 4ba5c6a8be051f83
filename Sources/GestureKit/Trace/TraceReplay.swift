/// Runs a trace through the engine exactly as the live bridge would: same engine, same
/// timers, with the trace's times as the clock.
public enum TraceReplay {
    public static func run(_ trace: Trace, configuration: BindingSet) -> [EngineOutput] {
        var engine = GestureEngine(configuration: configuration, devices: trace.header.devices,
                                   screen: trace.header.screen ?? .fallback)
        var outputs: [EngineOutput] = []
        outputs.reserveCapacity(trace.events.count / 4)
        for event in trace.events {
            engine.handle(event, into: &outputs)
        }
        // Timers due by the end of the recording still fire (a long press held to the end).
        if let last = trace.events.last {
            engine.advance(to: last.time, into: &outputs)
        }
        return outputs
    }
}
