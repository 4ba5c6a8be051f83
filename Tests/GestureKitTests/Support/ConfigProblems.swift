import GestureKit

/// The issues a config text produces (none when it parses), each with its line and column.
func problems(_ yaml: String) -> [ConfigIssue] {
    do {
        _ = try ConfigLoader.parse(yaml, file: "test.yaml")
        return []
    } catch {
        return error.issues
    }
}
