import Glibc


/// Where the bridge's config comes from: `--config`, else the user's file, else the built-in default.
public enum ConfigSource: Sendable, Hashable, CustomStringConvertible {
    case file(String)
    case builtInDefault

    /// `--config` when given; else `$XDG_CONFIG_HOME/gesture-bridge/config.yaml` (or
    /// `~/.config/...`) when that file exists, or is a link however it leads nowhere (a
    /// dotfiles checkout on a branch without the file: the person's config, mended later, not
    /// the built-in default's); else the built-in default.
    public static func resolve(explicit: String?, environment: [String: String] = ProcessEnvironment.current,
                               fileExists: (String) -> Bool = { access($0, F_OK) == 0 || SymbolicLinks.isLink($0) }) -> ConfigSource {
        if let explicit { return .file(explicit) }
        if let user = userConfigPath(environment: environment), fileExists(user) { return .file(user) }
        return .builtInDefault
    }

    /// The same source, a relative file named from `workingDirectory` (the process's now, when
    /// nil): a running bridge reads its file again long after it started, when the folder it
    /// started in may have been removed and made again (a dotfiles checkout cloned anew).
    public func anchored(in workingDirectory: String? = nil,
                         environment: [String: String] = ProcessEnvironment.current) -> ConfigSource {
        // An empty name stays empty, for the loader to say so (anchored, it named the directory).
        guard case .file(let path) = self, !path.isEmpty, !path.hasPrefix("/") else { return self }
        guard let directory = workingDirectory ?? Self.currentDirectory(environment: environment) else { return self }
        return .file((directory.hasSuffix("/") ? directory : directory + "/") + path)
    }

    /// The working directory as the shell names it (`PWD`, with the links the person went
    /// through: a dotfiles link pointed at a new clone later leads there), when that is this
    /// directory; else with links resolved.
    private static func currentDirectory(environment: [String: String]) -> String? {
        var here = stat()
        var named = stat()
        if let shell = environment["PWD"], shell.hasPrefix("/"), stat(".", &here) == 0, stat(shell, &named) == 0,
           here.st_dev == named.st_dev, here.st_ino == named.st_ino {
            return shell
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return buffer.withUnsafeBufferPointer { $0.baseAddress.map { String(cString: $0) } }
    }

    /// The per-user config file, following the XDG base directory rules.
    public static func userConfigPath(environment: [String: String] = ProcessEnvironment.current) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/gesture-bridge/config.yaml"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/gesture-bridge/config.yaml"
    }

    /// The config; `keyNames` (if given) says which keys `{key: ...}` may name.
    public func load(keyNames: (any KeyNames)? = nil, pipeWait: Double? = nil) throws(ConfigError) -> BindingSet {
        switch self {
        case .file(let path): return try ConfigLoader.load(path: path, keyNames: keyNames, pipeWait: pipeWait)
        case .builtInDefault: return ConfigLoader.builtInDefault
        }
    }

    public var description: String {
        switch self {
        case .file(let path): return path
        case .builtInDefault: return DefaultConfig.name
        }
    }
}
