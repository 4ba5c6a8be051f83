import Glibc

/// Tells when a config file changes, through inotify, on a descriptor the event loop polls.
///
/// It watches the directory that holds the file, not the file itself: editors save by writing
/// a new file and renaming it over the old one, which would leave a watch on the old file
/// looking at nothing, and a file that does not exist yet can only be seen arriving there.
/// Events for other names in the directory are ignored. When the file is a symbolic link (a
/// dotfiles checkout), the directory of the file it points to is watched too, whether that
/// file is there or not (a checkout removes it and writes it anew), and the link is followed
/// again after every change; while the directory it leads to is missing (a dotfiles folder
/// removed to be cloned again), the nearest folder above it that exists is watched until it
/// comes back. A change of mode counts as a change: the bridge refuses a config
/// others may write (`ConfigTrust`), and `chmod go-w`, as it advises, must be noticed.
public final class ConfigFileWatch {
    /// What reading the descriptor found.
    public enum Change: Sendable, Hashable {
        /// The file was written, replaced, created or removed (or the kernel dropped events,
        /// which might have been about it).
        case file
        /// The directory was removed or moved away: nothing will be reported any more.
        case directoryGone
    }

    public let path: String
    public let directory: String
    public let fileName: String
    public let descriptor: Int32
    /// The watch on `directory`.
    private let watch: Int32
    /// Where a symbolic link at `path` leads, and the watch on that file's directory.
    private var target: (path: String, watch: Int32)?
    /// While a link leads into a directory that does not exist: the watch on the nearest one
    /// above it that does, and the name of the folder in it on the way down, for its coming back.
    private var ancestor: (watch: Int32, child: String)?

    /// Written, replaced by a rename, created, removed or renamed away, its mode or owner
    /// changed (or the directory's); the directory itself removed or moved.
    private static let events = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
    /// sizeof(struct inotify_event) without the name: wd, mask, cookie, len.
    private static let headerSize = 16

    /// Starts watching the directory of `path`, which must exist; the file need not.
    public init(path: String) throws(ConfigWatchError) {
        let (directory, fileName) = Self.split(path)
        guard !fileName.isEmpty else {
            throw ConfigWatchError(path: path, reason: "it names a directory, not a file")
        }
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw ConfigWatchError(path: path, reason: "inotify is unavailable: \(String(cString: strerror(errno)))")
        }
        let watch = inotify_add_watch(descriptor, directory, Self.events | UInt32(IN_ONLYDIR))
        guard watch >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConfigWatchError(path: path, reason: "cannot watch the directory \(directory): \(reason)")
        }
        self.path = path
        self.directory = directory
        self.fileName = fileName
        self.descriptor = descriptor
        self.watch = watch
        followLink()
    }

    deinit {
        close(descriptor)
    }

    /// Whether the file is there now.
    public var fileExists: Bool {
        access(path, F_OK) == 0
    }

    /// Where a symbolic link at `path` leads, when it is one and its target's directory is
    /// watched too.
    public var linkTarget: String? { target?.path }

    /// Reads every event waiting on the descriptor; what they mean for the file, if anything.
    public func readChanges() -> Set<Change> {
        var changes: Set<Change> = []
        // Room for many events at once; the kernel never splits one across reads.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            if let target {
                // The target's directory going away ends nothing: the link's own events still come.
                changes.formUnion(Self.parse(buffer.prefix(count), watch: target.watch, fileName: Self.split(target.path).fileName)
                    .subtracting([.directoryGone]))
            }
            changes.formUnion(Self.parse(buffer.prefix(count), watch: watch, fileName: fileName))
            if let ancestor, Self.mentionsFolder(buffer.prefix(count), watch: ancestor.watch, named: ancestor.child) {
                changes.insert(.file)
            }
        }
        // The link may have been pointed elsewhere, replaced by a plain file, or the directory
        // it leads to made again; a new target's file may have been written before its watch.
        if changes.contains(.file) { followLink() }
        return changes
    }

    /// Watches the directory of the file a symbolic link at `path` leads to, if it is one; or,
    /// while that directory does not exist, the nearest one above it that does.
    private func followLink() {
        let newTarget = Self.finalTarget(of: path)
        // The old target's watch goes before any new one is added: an add on the same folder
        // would return its id, which the removal would then take away.
        if newTarget != target?.path {
            if let old = target, old.watch != watch {
                inotify_rm_watch(descriptor, old.watch)
            }
            target = nil
            if let newTarget {
                let targetWatch = inotify_add_watch(descriptor, Self.split(newTarget).directory, Self.events | UInt32(IN_ONLYDIR))
                if targetWatch >= 0 { target = (newTarget, targetWatch) }
            }
        }
        if newTarget == nil, let missing = Self.linkedPath(of: path) {
            watchAncestor(of: Self.split(missing).directory)
        } else if let old = ancestor {
            if old.watch != watch, old.watch != target?.watch { inotify_rm_watch(descriptor, old.watch) }
            ancestor = nil
        }
    }

    /// Watches the nearest existing directory above `missing` for the folder on the way down to
    /// it made or moved there.
    private func watchAncestor(of missing: String) {
        var (directory, child) = Self.split(missing)
        while access(directory, F_OK) != 0, directory != "/", directory != "." {
            (directory, child) = Self.split(directory)
        }
        // Added to what may be watched there already (the config's own directory): a watch's
        // events are replaced by a second add without IN_MASK_ADD.
        let added = inotify_add_watch(descriptor, directory, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD))
        if let old = ancestor, old.watch != added, old.watch != watch, old.watch != target?.watch {
            inotify_rm_watch(descriptor, old.watch)
        }
        ancestor = added >= 0 ? (added, child) : nil
    }

    /// Where a symbolic link at `path` leads in the end, through links to links, whether or
    /// not a file is there now, with its directory's real path; nil when `path` is no link, or
    /// the links loop, or the last one's directory does not exist.
    public static func finalTarget(of path: String) -> String? {
        guard let linked = linkedPath(of: path) else { return nil }
        let (directory, fileName) = split(linked)
        guard let resolved = realpath(directory, nil) else { return nil }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return (real == "/" ? "" : real) + "/" + fileName
    }

    /// The path a symbolic link at `path` leads to in the end, as the links write it (not
    /// resolved: its directory need not exist); nil when `path` is no link or the links loop.
    static func linkedPath(of path: String) -> String? {
        var current = path
        // The kernel's own limit on links followed in one lookup (ELOOP).
        for _ in 0..<40 {
            guard isSymbolicLink(current) else { return current == path ? nil : current }
            guard let text = linkText(current) else { return nil }
            current = text.hasPrefix("/") ? text : split(current).directory + "/" + text
        }
        return nil
    }

    /// Whether a block of events read from the descriptor says a folder `name` was made or
    /// moved in under `watch` (files coming and going there, a home folder's, are not news).
    static func mentionsFolder(_ bytes: ArraySlice<UInt8>, watch: Int32, named name: String) -> Bool {
        var found = false
        forEachEvent(in: bytes) { wd, mask, nameBytes in
            if wd == watch, mask & UInt32(IN_ISDIR) != 0, nameBytes.elementsEqual(name.utf8) { found = true }
        }
        return found
    }

    /// Each `struct inotify_event` in a block read from the descriptor: its watch, its mask and
    /// the name it carries (empty for the watched directory itself).
    private static func forEachEvent(in bytes: ArraySlice<UInt8>, _ body: (Int32, UInt32, ArraySlice<UInt8>) -> Void) {
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= headerSize {
            let (wd, mask, length) = bytes[offset..<(offset + headerSize)].withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: Int32.self), raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                 Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            }
            let nameStart = offset + headerSize
            guard length <= bytes.endIndex - nameStart else { break }
            body(wd, mask, bytes[nameStart..<(nameStart + length)].prefix { $0 != 0 })
            offset = nameStart + length
        }
    }

    /// What a symbolic link holds: the path it names, as written.
    private static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    private static func split(_ path: String) -> (directory: String, fileName: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    /// The changes in a block of `struct inotify_event`s read from the descriptor that concern
    /// `fileName` under `watch`.
    static func parse(_ bytes: ArraySlice<UInt8>, watch: Int32, fileName: String) -> Set<Change> {
        var changes: Set<Change> = []
        forEachEvent(in: bytes) { wd, mask, nameBytes in
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes.insert(.file)
                return
            }
            guard wd == watch else { return }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                changes.insert(.directoryGone)
            } else if nameBytes.elementsEqual(fileName.utf8) {
                changes.insert(.file)
            } else if nameBytes.isEmpty, mask & UInt32(IN_ATTRIB) != 0 {
                // The directory's own mode or owner: whether the file may be trusted.
                changes.insert(.file)
            }
        }
        return changes
    }
}
