import ArgumentParser

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("'Check' is not available in this build.")
    }
}
