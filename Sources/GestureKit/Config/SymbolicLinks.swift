import Glibc

/// Symbolic links read as the kernel follows them, one hop at a time, without resolving them
/// all at once (`realpath` would hide the hops): what a config's trust (`ConfigTrust`: who may
/// re-point a link) and its watch (the bridge's `ConfigFileWatch`: which re-pointing changes
/// the file) both walk, and where `calibrate --write` writes through a dotfiles link.
public enum SymbolicLinks {
    /// The kernel's own limit on links followed in one lookup (ELOOP).
    public static let hopLimit = 40

    /// Whether `path` itself is a symbolic link (the link, not what it leads to).
    public static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// The path the link at `path` names, a relative one anchored at the link's folder; nil when
    /// `path` is no link, or it cannot be read.
    public static func next(after path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("/") ? text : split(path).directory + "/" + text
    }

    /// `path`, then each path the links from it name in turn, as they write them (a folder on
    /// the way need not exist), up to the kernel's limit: every hop but the last is a link.
    public static func chain(from path: String) -> [String] {
        var hops = [path]
        while hops.count <= hopLimit, let hop = hops.last, let next = next(after: hop) {
            hops.append(next)
        }
        return hops
    }

    /// The path a link at `path` leads to in the end, as the links write it (its folder need
    /// not exist); nil when `path` is no link, or the links loop or cannot be read.
    public static func end(from path: String) -> String? {
        let hops = chain(from: path)
        guard hops.count > 1, let last = hops.last, !isLink(last) else { return nil }
        return last
    }

    /// Where a link at `path` leads in the end, with its folder's real path; nil when `path` is
    /// no link, or the links loop, or the last one's folder does not exist. Whether a file is
    /// there now does not matter.
    public static func finalTarget(of path: String) -> String? {
        guard let end = end(from: path) else { return nil }
        let (directory, fileName) = split(end)
        guard let real = realPath(directory) else { return nil }
        return (real == "/" ? "" : real) + "/" + fileName
    }

    /// Each folder on the way to `directory`, itself included, that is a symbolic link, the
    /// deepest first.
    public static func linkedFolders(onTheWayTo directory: String) -> [String] {
        var links: [String] = []
        var current = directory
        while current != "/", current != ".", !current.isEmpty {
            if isLink(current) { links.append(current) }
            current = split(current).directory
        }
        return links
    }

    /// The one spelling of the file at `path`, whether it exists or not: every link resolved,
    /// a link that leads nowhere taken to where it leads, `//` and a folder's trailing `/` gone.
    public static func canonical(_ path: String) -> String {
        realPath(path) ?? finalTarget(of: path) ?? inRealFolder(path)
    }

    /// `path` in its folder's real path (`//`, a trailing `/` and the folders' links resolved),
    /// the file's own name kept, link or not.
    public static func inRealFolder(_ path: String) -> String {
        let (directory, fileName) = split(path)
        guard let folder = realPath(directory) else { return path }
        return (folder == "/" ? "" : folder) + "/" + fileName
    }

    /// Whether two paths name the same file (`canonical`).
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        canonical(first) == canonical(second)
    }

    /// The real path of `path`, every link resolved; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A path's folder (`.` for a bare name, `/` at the root) and the name in it.
    public static func split(_ path: String) -> (directory: String, fileName: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }
}
