/// The built-in default config: `Config/default.yaml` (also `config/default.yaml` at the top of
/// the repository), compiled into the binary by the build.
public enum DefaultConfig {
    public static let name = "<built-in default>"

    /// The file's text, without its final line break.
    public static let text: String = {
        var text = String(decoding: PackageResources.default_yaml, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }()
}
