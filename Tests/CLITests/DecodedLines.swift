import Foundation
import GestureKit

/// A command's standard output, each line decoded into the type that printed it: a renamed or
/// missing key fails to decode, naming the line.
func decodedLines<Line: Decodable>(_ type: Line.Type, _ output: String) throws -> [Line] {
    try output.split(separator: "\n").map { line in
        do {
            return try JSONDecoder().decode(Line.self, from: Data(line.utf8))
        } catch {
            throw DecodedLineError(line: String(line), error: error)
        }
    }
}

struct DecodedLineError: Error, CustomStringConvertible {
    let line: String
    let error: any Error
    var description: String { "\(line): \(error)" }
}
