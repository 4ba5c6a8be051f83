import ArgumentParser

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("'Devices' is not available in this build.")
    }
}
