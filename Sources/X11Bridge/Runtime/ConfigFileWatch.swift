import Glibc

/// Tells when a config file changes, through inotify, on a descriptor the event loop polls.
///
/// It watches the directory that holds the file, not the file itself: editors save by writing
/// a new file and renaming it over the old one, which would leave a watch on the old file
/// looking at nothing, and a file that does not exist yet can only be seen arriving there.
/// Events for other names in the directory are ignored.
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
    private let watch: Int32

    /// Written, replaced by a rename, created, removed or renamed away; the directory itself
    /// removed or moved.
    private static let events = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_DELETE_SELF | IN_MOVE_SELF)
    /// sizeof(struct inotify_event) without the name: wd, mask, cookie, len.
    private static let headerSize = 16

    /// Starts watching the directory of `path`, which must exist; the file need not.
    public init(path: String) throws(ConfigWatchError) {
        let directory: String
        let fileName: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
            fileName = String(path[path.index(after: slash)...])
        } else {
            directory = "."
            fileName = path
        }
        guard !fileName.isEmpty else {
            throw ConfigWatchError(path: path, reason: "it names a directory, not a file")
        }
        let opened = try Self.open(directory: directory, for: path)
        self.path = path
        self.directory = directory
        self.fileName = fileName
        self.descriptor = opened.descriptor
        self.watch = opened.watch
    }

    deinit {
        close(descriptor)
    }

    private static func open(directory: String, for path: String) throws(ConfigWatchError) -> (descriptor: Int32, watch: Int32) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw ConfigWatchError(path: path, reason: "inotify is unavailable: \(String(cString: strerror(errno)))")
        }
        let watch = inotify_add_watch(descriptor, directory, events | UInt32(IN_ONLYDIR))
        guard watch >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConfigWatchError(path: path, reason: "cannot watch the directory \(directory): \(reason)")
        }
        return (descriptor, watch)
    }

    /// Whether the file is there now.
    public var fileExists: Bool {
        access(path, F_OK) == 0
    }

    /// Reads every event waiting on the descriptor; what they mean for the file, if anything.
    public func readChanges() -> Set<Change> {
        var changes: Set<Change> = []
        // Room for many events at once; the kernel never splits one across reads.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            changes.formUnion(Self.parse(buffer.prefix(count), watch: watch, fileName: fileName))
        }
        return changes
    }

    /// The changes in a block of `struct inotify_event`s read from the descriptor.
    static func parse(_ bytes: ArraySlice<UInt8>, watch: Int32, fileName: String) -> Set<Change> {
        var changes: Set<Change> = []
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= headerSize {
            let header = bytes[offset..<(offset + headerSize)].withUnsafeBytes { raw in
                (wd: raw.loadUnaligned(fromByteOffset: 0, as: Int32.self),
                 mask: raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                 length: Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            }
            let nameStart = offset + headerSize
            guard header.length <= bytes.endIndex - nameStart else { break }
            let nameBytes = bytes[nameStart..<(nameStart + header.length)].prefix { $0 != 0 }
            offset = nameStart + header.length
            if header.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes.insert(.file)
                continue
            }
            guard header.wd == watch else { continue }
            if header.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                changes.insert(.directoryGone)
            } else if nameBytes.elementsEqual(fileName.utf8) {
                changes.insert(.file)
            }
        }
        return changes
    }
}
