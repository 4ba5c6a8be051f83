/// A test X server an application window can be opened on: a `RecorderWindow` works the same
/// on the inputtest server (`HeadlessXorg`) and on the real-driver ones (`RealDriverXorg`).
public protocol HeadlessDisplay: AnyObject {
    var displayName: String { get }
    var width: Int { get }
    var height: Int { get }
}

extension HeadlessXorg: HeadlessDisplay {}
