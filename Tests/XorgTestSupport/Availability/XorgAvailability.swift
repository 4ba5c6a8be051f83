import Foundation
import Testing

/// Whether the end-to-end tests can run here, and whether they must.
///
/// Where a headless Xorg cannot run, its tests are skipped with the reason, unless
/// `GESTUREBRIDGE_REQUIRE_XORG=1` (CI sets it): then they run, and fail with the reason, so a
/// machine that lost its X server cannot pass by skipping everything.
///
///     @Test(.requiresXorg) func penDownClicks() throws {
///         let server = try HeadlessXorg()
///         defer { server.stop() }
///         ...
///     }
public enum XorgAvailability {
    public static let requirementVariable = "GESTUREBRIDGE_REQUIRE_XORG"

    /// What is missing to run a headless Xorg here, or nil.
    public static let unavailableReason: String? = HeadlessXorg.unavailableReason()

    public static var isRequired: Bool {
        isRequired(in: ProcessInfo.processInfo.environment)
    }

    public static func isRequired(in environment: [String: String]) -> Bool {
        environment[requirementVariable] == "1"
    }

    /// Why the Xorg tests are skipped, or nil when they run (also when Xorg is required but
    /// missing: they then fail, with `unavailableReason` in the error).
    public static func skipReason() -> String? {
        skipReason(unavailableReason: unavailableReason, environment: ProcessInfo.processInfo.environment)
    }

    public static func skipReason(unavailableReason: String?, environment: [String: String]) -> String? {
        guard let unavailableReason, !isRequired(in: environment) else { return nil }
        return "needs a headless Xorg: \(unavailableReason) (set \(requirementVariable)=1 to make this a failure)"
    }

    public static var canRun: Bool {
        skipReason() == nil
    }

    public static var message: Comment {
        Comment(rawValue: skipReason() ?? "a headless Xorg is available")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where a headless Xorg can start, or where it is required.
    public static var requiresXorg: Self {
        .enabled(if: XorgAvailability.canRun, XorgAvailability.message)
    }
}
