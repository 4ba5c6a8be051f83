import ArgumentParser

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("'Replay' is not available in this build.")
    }
}
