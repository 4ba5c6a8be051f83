import Foundation
import GestureKit

// libFuzzer entry for the config parser: any bytes must give bindings or located errors,
// never a crash. Built with `scripts/fuzz config`; without the fuzzer it replays files.

/// What any config input must satisfy (`FuzzerDriver.swift` runs it).
func checkInput(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    do {
        let bindings = try ConfigLoader.parse(text, file: "fuzz.yaml")
        // What parses must render and parse back to the same thing.
        let again = try ConfigLoader.parse(ConfigRenderer.render(bindings), file: "rendered.yaml")
        precondition(again == bindings, "rendering changed the config")
    } catch {
        precondition(!error.issues.isEmpty, "an error without a message")
    }
}
