import Glibc

/// The last config that loaded from each config file, kept beside the learned state
/// (`$XDG_STATE_HOME/gesture-bridge/configs/`, a file per config file, mode 0600): a bad edit
/// saved in the evening is refused by the running bridge, and the bridge started at the next
/// login runs the config that last worked instead of none, until the file is mended.
public struct KeptConfig: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The user's, beside the learned state; nil without a home.
    public static func user(environment: [String: String] = ProcessEnvironment.current) -> KeptConfig? {
        LearnedStateStore.user(environment: environment).map { KeptConfig(directory: $0.directory + "/configs") }
    }

    /// Where the config that loaded from `config` (an absolute path) is kept: letters and digits
    /// of its path kept, anything else a dash, and a hash of the whole path, in its folder's real
    /// path (`SymbolicLinks.inRealFolder`). Found in review: the same file reached through a
    /// linked folder, or an XDG_CONFIG_HOME ending in `/`, found no copy kept. The file's own
    /// link is not followed: a home manager points it at a new target with every change, and
    /// the copy is the last good config of the file the person names.
    public func path(for config: String) -> String {
        path(named: SymbolicLinks.inRealFolder(config))
    }

    private func path(named config: String) -> String {
        directory + "/" + FileContents.name(for: config.unicodeScalars.suffix(60), hashing: config) + ".yaml"
    }

    /// Keeps what `config` holds now when it is what loaded as `bindings` (read again: the
    /// file may have changed since, and then the next load keeps it); true when kept.
    @discardableResult
    public func keep(_ config: String, loadedAs bindings: BindingSet, keyNames: (any KeyNames)? = nil) -> Bool {
        guard let bytes = try? FileContents.read(config), let text = String(validating: bytes, as: UTF8.self),
              (try? ConfigLoader.parse(text, file: config, keyNames: keyNames)) == bindings else { return false }
        let kept = path(for: config)
        if let old = try? FileContents.read(kept), old == bytes { return true }
        do {
            try FileContents.makeDirectories(directory)
            try FileContents.replace(kept, with: bytes)
            // A copy kept before 0.18 under the path as spelled would be found should this
            // one go: it is older.
            let spelled = path(named: config)
            if spelled != kept { unlink(spelled) }
            return true
        } catch {
            return false
        }
    }

    /// The config last kept for `config`, loaded as any config is (a copy others could change
    /// is refused); nil when none is kept, or it does not load any more.
    public func load(for config: String, keyNames: (any KeyNames)? = nil) -> (bindings: BindingSet, path: String)? {
        // Kept before 0.18 under the path as it was spelled.
        let canonical = path(for: config), spelled = path(named: config)
        for kept in canonical == spelled ? [canonical] : [canonical, spelled] {
            if let bindings = try? ConfigLoader.load(path: kept, keyNames: keyNames) { return (bindings, kept) }
        }
        return nil
    }
}
