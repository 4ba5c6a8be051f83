import ArgumentParser
import ChaosSupport
import Foundation

/// `gesture-chaos`: seeded random episodes of a day at the desk, played against the real bridge
/// on a headless Xorg, each judged by what an application window received.
@main
struct ChaosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-chaos",
        abstract: "Plays seeded random episodes against the bridge and checks what an application receives.",
        discussion: """
            Each episode runs on a fresh headless Xorg (root) with the inputtest pen and touchscreen, a \
            full-screen application window and the bridge with the built-in default config: pen and touch \
            taps, deep presses (slow, fast, soft and abrupt lifts), drags, held presses, knob turns, two \
            fingers, pen and touch at once, devices disabled and enabled idle and mid-press, reloads \
            mid-press, bursts with no pauses, and for a quarter of them a busy loop on every core. After \
            every step it checks that nothing is held, a plain click arrives whole, a deep press gave one \
            right-click and no left press, the bridge lives and reported no X error or bug.

            With --mouse the server has a plain mouse too, and its steps are drawn among the others. \
            An episode follows from the seed and its number alone: `--seed 7 --only 12` plays it again \
            (`--mouse` too for a run with one). \
            Failures go to the failures file with their plan (for `--plan`), what the window got and \
            the bridge's lines.
            """)

    @Option(help: "The run's seed: the same seed and episode number play the same episode.")
    var seed: UInt64 = 1

    @Option(help: "How many episodes, numbered from 1.")
    var episodes: Int = 20

    @Option(help: ArgumentHelp("Only these episode numbers, comma-separated.", valueName: "I,J,..."))
    var only: String?

    @Option(help: ArgumentHelp("Play the episodes in this JSON file (a failures file's plans, edited or not).", valueName: "file"))
    var plan: String?

    @Option(help: ArgumentHelp("Where failures are written.", valueName: "file"))
    var failures: String = "chaos-failures.txt"

    @Option(help: ArgumentHelp("The gesture-bridge executable; by default the one built beside this one.", valueName: "path"))
    var bridge: String?

    @Flag(help: "Also draw steps with a plain mouse beside the pen: clicks, drags, a click while the pen presses. A run of its own: the same seed plays other episodes with it.")
    var mouse = false

    func validate() throws {
        guard episodes > 0 else { throw ValidationError("--episodes must be at least 1, not \(episodes)") }
        if let only, onlyNumbers(only) == nil {
            throw ValidationError("--only takes episode numbers separated by commas, such as 3,17; got '\(only)'")
        }
    }

    private func onlyNumbers(_ text: String) -> [Int]? {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
        return numbers.compactMap { $0 }
    }

    func run() throws {
        let list = try chosenEpisodes()
        let executable = bridge ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("gesture-bridge").path
        let player = ChaosPlayer(bridgeExecutable: executable)
        let started = Date()
        var failed: [ChaosOutcome] = []
        var xErrors = 0, merged = 0, deferred = 0
        var replayed = 0
        for episode in list {
            var outcome = try player.play(episode)
            // The harness, too late to drive the press planned, failed its own stimulus: the
            // episode is played again, and judged by that.
            if !outcome.passed, let late = outcome.lateStimulus {
                // Said all the same: a real failure may come with a busy moment.
                for failure in outcome.failures {
                    FileHandle.standardError.write(Data("chaos: (the harness \(Int(late * 1000)) ms late, played again) \(failure)\n".utf8))
                }
                replayed += 1
                outcome = try player.play(episode)
            }
            xErrors += outcome.xErrors
            merged += outcome.mergedTaps
            deferred += outcome.deferredTouchChoices
            if !outcome.passed {
                failed.append(outcome)
                for failure in outcome.failures { FileHandle.standardError.write(Data("chaos: \(failure)\n".utf8)) }
            }
        }
        let minutes = Date().timeIntervalSince(started) / 60
        let busy = list.filter(\.busy).count
        print("chaos: \(list.count) episodes (seed \(seed)\(mouse ? " with a mouse" : ""), \(busy) on a busy machine), \(failed.count) failed, "
              + "\(xErrors) X errors, \(deferred) touch choices deferred, \(merged) burst taps merged, "
              + "\(replayed) played again (the harness late), "
              + "\(String(format: "%.1f", minutes)) min")
        try? FileManager.default.removeItem(atPath: failures)
        guard !failed.isEmpty else { return }
        try ChaosReport.write(failed, to: failures)
        print("chaos: failures written to \(failures)")
        throw ExitCode.failure
    }

    private func chosenEpisodes() throws -> [ChaosEpisode] {
        if let plan {
            do {
                return try JSONDecoder().decode([ChaosEpisode].self, from: Data(contentsOf: URL(fileURLWithPath: plan)))
            } catch {
                throw ValidationError("cannot read the plan \(plan): \(error)")
            }
        }
        let numbers = only.flatMap(onlyNumbers) ?? Array(1...episodes)
        return numbers.map { ChaosEpisode.generate(seed: seed, number: $0, mouse: mouse) }
    }
}
