import ArgumentParser

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("'Run' is not available in this build.")
    }
}
