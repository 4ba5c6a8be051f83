import ArgumentParser

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("'Analyze' is not available in this build.")
    }
}
