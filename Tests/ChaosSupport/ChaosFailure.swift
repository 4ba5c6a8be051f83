/// Something an episode found wrong, with what a person would have noticed.
public struct ChaosFailure: Sendable, CustomStringConvertible {
    public var episode: ChaosEpisode
    /// The step it showed after (nil: after the whole episode).
    public var step: Int?
    public var problem: String
    /// What the window received during that step.
    public var windowEvents: [String]

    public var description: String {
        let place = step.map { "step \($0 + 1) (\(episode.steps[$0]))" } ?? "after the episode"
        return "\(episode.name), \(place): \(problem)"
    }
}

/// What playing one episode came to: its failures, and the bridge's lines for the record.
public struct ChaosOutcome: Sendable {
    public var episode: ChaosEpisode
    public var failures: [ChaosFailure]
    /// Everything the window received in the episode, step by step.
    public var windowLog: [String]
    public var bridgeOutput: [String]
    public var bridgeLog: String
    /// X errors the bridge reported (`x-error` events), counted apart for the summary.
    public var xErrors: Int
    /// Burst taps the application got merged with the next one (see `BurstTests`).
    public var mergedTaps: Int
    /// Touch choices the server refused for the moment, the master having switched to a device
    /// without touches (`ownership: deferred`), and sent again: a race the protocol leaves open.
    public var deferredTouchChoices: Int
    /// How late the harness itself was in a step that failed (seconds past a pause's end,
    /// beyond `EpisodeRun.lateLimit`): its stimulus was not the one planned. Nil when on time.
    public var lateStimulus: Double?

    public var passed: Bool { failures.isEmpty }
}
