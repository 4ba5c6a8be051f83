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

    /// Whether a config that loaded was kept.
    public enum Keeping: Sendable, Equatable {
        case kept
        /// The file changed since it loaded: the next load keeps it.
        case changedSince
        /// It could not be written (a full or read-only home): a copy kept before stays, older
        /// than what loaded since.
        case failed(String)
    }

    /// Keeps what `config` holds now when it is what loaded as `bindings` (read again: the
    /// file may have changed since, and then the next load keeps it).
    @discardableResult
    public func keep(_ config: String, loadedAs bindings: BindingSet, keyNames: (any KeyNames)? = nil) -> Keeping {
        guard let bytes = try? FileContents.read(config), let text = String(validating: bytes, as: UTF8.self),
              (try? ConfigLoader.parse(text, file: config, keyNames: keyNames)) == bindings else { return .changedSince }
        let kept = path(for: config)
        if let old = try? FileContents.read(kept), old == bytes { return .kept }
        do {
            try FileContents.makeDirectories(directory)
            try FileContents.replace(kept, with: bytes)
            // A copy kept before 0.18 under the path as spelled would be found should this
            // one go: it is older.
            let spelled = path(named: config)
            if spelled != kept { unlink(spelled) }
            return .kept
        } catch {
            return .failed("cannot keep a copy of \(config) in \(directory) (\(error.reason)): a bridge started on a broken edit of it would run an older copy, or none")
        }
    }

    /// When the copy at `kept` was written, as local time (`2026-11-29 09:47`); nil when unknown.
    public static func keptWhen(_ kept: String) -> String? {
        var status = stat()
        guard stat(kept, &status) == 0 else { return nil }
        var seconds = status.st_mtim.tv_sec
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &local)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
