import Glibc

/// What a bridge started now runs from a config source, and why: `run` starts with it, and
/// `doctor` and `devices` say it. A bad edit saved never leaves a person without the gestures
/// they had (`KeptConfig`).
public enum StartingConfig: Sendable {
    /// The config loaded.
    case loaded(BindingSet)
    /// The file does not load; the config that last loaded from it, kept at `keptAt`.
    case kept(BindingSet, keptAt: String, error: ConfigError)
    /// The user's own file does not load, nothing kept for it (a first config saved broken, or
    /// refused for who may change it; a link leading nowhere, a dotfiles checkout on a branch
    /// without it): the built-in default, as with no file, until it is mended. Found in review
    /// of a config written for someone else: their first config saved with a typo left them no
    /// gestures at all from the next login.
    case builtInMeanwhile(error: ConfigError)
    /// The file does not load, and nothing stands in for it.
    case failed(ConfigError)

    /// `source` as `anchored()`; `kept`: where the user's kept configs are (none: nothing kept).
    public init(_ source: ConfigSource, kept: KeptConfig?, keyNames: (any KeyNames)? = nil,
                environment: [String: String] = ProcessEnvironment.current) {
        do {
            self = .loaded(try source.load(keyNames: keyNames))
        } catch {
            guard case .file(let path) = source else { self = .failed(error); return }
            if let last = kept?.load(for: path, keyNames: keyNames) {
                self = .kept(last.bindings, keptAt: last.path, error: error)
            } else if path == ConfigSource.userConfigPath(environment: environment) {
                self = .builtInMeanwhile(error: error)
            } else {
                self = .failed(error)
            }
        }
    }

    /// The bindings a bridge started now runs; nil when it would not start.
    public var bindings: BindingSet? {
        switch self {
        case .loaded(let bindings), .kept(let bindings, _, _): bindings
        case .builtInMeanwhile: ConfigLoader.builtInDefault
        case .failed: nil
        }
    }

    /// What is wrong with the file; nil when it loaded.
    public var error: ConfigError? {
        switch self {
        case .loaded: nil
        case .kept(_, _, let error), .builtInMeanwhile(let error), .failed(let error): error
        }
    }

    /// What runs instead of the file, in words ("the last copy kept of …"); nil when
    /// the file's own config runs, or none.
    public func standIn(for source: ConfigSource) -> String? {
        switch self {
        case .loaded, .failed: nil
        // Said as the copy it is: one that could not be kept (a full home) left an older one.
        case .kept(_, let keptAt, _):
            "the last copy kept of \(source) (\(keptAt)\(KeptConfig.keptWhen(keptAt).map { ", kept \($0)" } ?? ""))"
        case .builtInMeanwhile: "the built-in default"
        }
    }
}
