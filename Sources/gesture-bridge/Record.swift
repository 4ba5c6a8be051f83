import ArgumentParser

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("'Record' is not available in this build.")
    }
}
