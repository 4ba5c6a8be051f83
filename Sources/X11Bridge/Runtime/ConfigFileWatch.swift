import Glibc
import GestureKit

/// Tells when a config file changes, through inotify, on a descriptor the event loop polls.
///
/// It watches the directory that holds the file, not the file itself: editors save by writing
/// a new file and renaming it over the old one, which would leave a watch on the old file
/// looking at nothing, and a file that does not exist yet can only be seen arriving there.
/// Events for other names in the directory are ignored. It follows the path, not the folders
/// it found at start:
/// - while the directory does not exist (no config folder yet, or one removed to be made
///   again), the nearest folder above it that does is watched until the folders on the way
///   down come, and the directory is watched from then on;
/// - when the directory is a symbolic link (a dotfiles folder linked in), the folder holding the
///   link is watched too, and a link pointed elsewhere is followed;
/// - when the file is a symbolic link (a dotfiles checkout), the directory of the file it points
///   to is watched too, whether that file is there or not (a checkout removes it and writes it
///   anew), and the link is followed again after every change; its directory missing, the
///   nearest folder above it is watched until it comes back; so are the links further along
///   the chain (a profile link pointed elsewhere);
/// - the folders above the directory and above a link's target are watched for themselves
///   moving or going, not for what comes and goes in them: one moved aside and made again (a
///   dotfiles checkout cloned anew, `~/.config` restored from a backup) gives no event in the
///   folder watched.
///
/// A change of mode counts as a change: the bridge refuses a config others may write
/// (`ConfigTrust`), and `chmod go-w`, as it advises, must be noticed: of the file, of its
/// directory, and of each folder holding a link on the way (a folder link's, a second link's
/// in a chain), which the trust examines too.
///
/// Whether the file is still open for writing is kept from one read of the descriptor to the
/// next: a file made (`cat > config.yaml`, `curl -o`) or written is open until a close after
/// writing, a rename or its removal says otherwise; a change of its mode or times meanwhile
/// (the writer's own `fchmod`) does not end it. A file made without being opened for writing
/// (a link, `ln` or `ln -s`) is not.
public final class ConfigFileWatch {
    /// What reading the descriptor found.
    public enum Change: Sendable, Hashable {
        /// The file was written, replaced, created or removed, or a folder on its way came, went
        /// or was pointed elsewhere (or the kernel dropped events, which might have been about it).
        case file
        /// The file is still open for writing: made or written, with no close, rename or
        /// removal since, in this read or an earlier one (a slow writer, a script writing line
        /// by line, a download). What is there may be half, or nothing yet.
        case writing
        /// Nothing can be watched any more, neither the directory nor a folder above it (the
        /// kernel's limit on watches reached; `lostBecause` says): nothing will be reported any more.
        case watchLost
    }

    /// Why the watch was lost (`Change.watchLost`), in the system's words.
    public private(set) var lostBecause: String?

    public let path: String
    public let directory: String
    public let fileName: String
    public let descriptor: Int32
    /// The watch on `directory` and the real path of the folder it watches; nil while the
    /// directory does not exist.
    private var watch: (id: Int32, folder: String)?
    /// Where a symbolic link at `path` leads, and the watch on that file's directory.
    private var target: (path: String, watch: Int32)?
    /// Watches on the folders on the way to the config that may change under it: a folder
    /// above a missing one, for the next one down coming (`child`); the folder holding the
    /// directory when that is a link, for the link pointed elsewhere, and for its own mode
    /// (`holdsLink`: whoever may write there may point the link anywhere).
    private var waypoints: [Waypoint] = []
    /// Called with each folder on the way just before it is watched: a test removes one there,
    /// as a checkout removing its emptied folders does between the look and the watch.
    var willWatch: ((String) -> Void)?
    /// Whether the file the directory names, and the one a link at `path` leads to, are open
    /// for writing now, as far as the events read so far tell.
    private var fileWriting = false
    private var targetWriting = false

    /// Written, replaced by a rename, created, removed or renamed away, its mode or owner
    /// changed (or the directory's); the directory itself removed or moved.
    private static let events = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
    /// sizeof(struct inotify_event) without the name: wd, mask, cookie, len.
    private static let headerSize = 16

    /// A folder on the way watched for `child` coming or being pointed elsewhere, or, with
    /// `child` empty, for itself moving or going.
    private struct Waypoint {
        var folder: String
        var child: String
        /// It holds a link on the way to the file: its mode matters to the trust.
        var holdsLink = false
        /// A folder above that others may change now, for which the config is refused
        /// (`ConfigTrust`): its mode mended (`chmod go-w` there, as the refusal advises) loads it.
        var othersMayChange = false
        var watch: Int32 = -1
    }

    /// Starts watching for the file at `path`: its directory, or, while that does not exist, the
    /// nearest folder above it. Throws when neither can be watched (a folder on the way that is
    /// a file, no permission, the kernel's limit on watches).
    public init(path: String) throws(ConfigWatchError) {
        let (directory, fileName) = Self.split(path)
        guard !fileName.isEmpty else {
            throw ConfigWatchError(path: path, reason: "it names a directory, not a file")
        }
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            // EMFILE here is the kernel's count of inotify instances, not `ulimit -n` (found in
            // review: "Too many open files" sent a person to the wrong limit).
            let code = errno
            let limit = code == EMFILE ? " (the inotify instances your user may have, fs.inotify.max_user_instances, are used up by other programs)" : ""
            throw ConfigWatchError(path: path, reason: "inotify is unavailable: \(String(cString: strerror(code)))\(limit)")
        }
        self.path = path
        self.directory = directory
        self.fileName = fileName
        self.descriptor = descriptor
        if let failure = refresh() {
            close(descriptor)
            throw ConfigWatchError(path: path, reason: failure)
        }
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

    /// Whether the directory itself is watched now (not a folder above it, waiting for it).
    public var watchesDirectory: Bool { watch != nil }

    /// Reads every event waiting on the descriptor; what they mean for the file, if anything.
    public func readChanges() -> Set<Change> {
        var changes: Set<Change> = []
        var directoryGone = false
        // Room for many events at once; the kernel never splits one across reads.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            let bytes = buffer.prefix(count)
            if let target {
                // The target's directory going away ends nothing: the link's own events still come.
                changes.formUnion(Self.parse(bytes, watch: target.watch, fileName: Self.split(target.path).fileName,
                                             path: target.path, writing: &targetWriting))
            }
            if let watch {
                changes.formUnion(Self.parse(bytes, watch: watch.id, fileName: fileName, path: path, writing: &fileWriting))
                if Self.saysGone(bytes, watch: watch.id) { directoryGone = true }
            }
            if waypoints.contains(where: {
                Self.mentions(bytes, watch: $0.watch, named: $0.child)
                    || (($0.holdsLink || $0.othersMayChange) && Self.saysModeChanged(bytes, watch: $0.watch))
            }) {
                changes.insert(.file)
            }
            // A folder on the way, or the link target's, removed (a dotfiles folder removed to
            // be cloned again, in steps): the way is looked for anew.
            let others = waypoints.map(\.watch) + (target.map { [$0.watch] } ?? [])
            if others.contains(where: { Self.saysGone(bytes, watch: $0) }) { changes.insert(.file) }
        }
        if directoryGone, let gone = watch {
            // Moved away, the folder would still be watched where it went.
            watch = nil
            fileWriting = false
            release(gone.id)
            changes.insert(.file)
        }
        // A folder on the way may have come, gone or been pointed elsewhere, the link too; a new
        // folder's file may have been written before its watch.
        if changes.contains(.file), let failure = refresh() {
            lostBecause = failure
            changes.insert(.watchLost)
        }
        // Still open for writing, whatever this read held (its writer's own change of mode).
        if changes.contains(.file), fileWriting || targetWriting { changes.insert(.writing) }
        return changes
    }

    /// Why `inotify_add_watch` failed with `error`: the system's words, but for the limit on
    /// watches, which they call a full device.
    private static func watchFailure(_ error: Int32) -> String {
        error == ENOSPC ? "the system's inotify watches are used up (another program may hold them; fs.inotify.max_user_watches)"
            : String(cString: strerror(error))
    }

    /// Watches what the path leads through now: the directory (where a link to it leads now),
    /// the directory of a link's target, and the waypoints for what is missing or linked. Nil
    /// when something is watched; else why nothing can be.
    private func refresh() -> String? {
        var failure: String?
        // Folders may come between a look and a watch: then look again, a few times at most.
        for _ in 0..<8 {
            failure = nil
            let folder = SymbolicLinks.realPath(directory)
            if folder != watch?.folder {
                let old = watch
                watch = nil
                fileWriting = false
                if let folder {
                    let id = inotify_add_watch(descriptor, directory, Self.events | UInt32(IN_ONLYDIR))
                    if id >= 0 {
                        watch = (id, folder)
                    } else if errno == ENOENT {
                        // Gone since the look: look again.
                        if let old { release(old.id) }
                        continue
                    } else {
                        failure = "cannot watch the directory \(directory): \(Self.watchFailure(errno))"
                    }
                }
                if let old { release(old.id) }
            }
            followLink()
            var wanted: [Waypoint] = []
            if watch == nil, failure == nil {
                wanted.append(Self.nearestExisting(above: directory))
            }
            if let watched = watch {
                // Folders on the way that are links (a dotfiles folder linked in, `~/.config`
                // itself): pointed elsewhere, they change the directory without an event in it.
                wanted += Self.linksOnTheWay(to: directory)
                // The folders above the one watched: one of them moved aside and made again (a
                // dotfiles checkout moved away and cloned anew, `~/.config` restored from a
                // backup) leaves the watch on the folder moved, with no event in it.
                wanted += Self.ancestors(of: watched.folder)
            }
            if let linked = target {
                // The same for the file a link leads to, and the links on the way there: a link
                // further along pointed elsewhere (a profile switched) changes the file too.
                wanted += Self.ancestors(of: Self.split(linked.path).directory)
                wanted += Self.linksInChain(from: path)
            }
            if watch != nil, target == nil, let missing = SymbolicLinks.end(from: path) {
                wanted.append(Self.nearestExisting(above: Self.split(missing).directory))
            }
            let old = waypoints
            waypoints = []
            var gone = false
            for var way in wanted {
                // Added to what may be watched there already (the directory itself): a watch's
                // events are replaced by a second add without IN_MASK_ADD.
                // A folder above is watched for itself moving or going (`child` empty), never
                // for what comes and goes in it: a home folder's files would wake the bridge.
                // One holding a link is watched for its mode too (`chmod go-w` there, as a
                // refusal advises, loads the config).
                let mask = (way.child.isEmpty ? IN_MOVE_SELF | IN_DELETE_SELF : IN_CREATE | IN_MOVED_TO)
                    | (way.holdsLink || way.othersMayChange ? IN_ATTRIB : 0)
                willWatch?(way.folder)
                way.watch = inotify_add_watch(descriptor, way.folder, UInt32(mask | IN_ONLYDIR | IN_MASK_ADD))
                if way.watch >= 0 {
                    waypoints.append(way)
                } else if errno == ENOENT {
                    // Gone since the look (a checkout removing its emptied folders one by one,
                    // where the config is a link into it too): look again, as for the directory.
                    if watch == nil {
                        failure = "cannot watch \(way.folder), above the missing directory \(directory): \(Self.watchFailure(ENOENT))"
                    }
                    gone = true
                    break
                } else if watch == nil {
                    failure = "cannot watch \(way.folder), above the missing directory \(directory): \(Self.watchFailure(errno))"
                }
            }
            for way in old { release(way.watch) }
            if gone { continue }
            guard failure == nil else { return failure }
            // Settled unless what was missing came meanwhile.
            let directoryCame = watch == nil && SymbolicLinks.realPath(directory) != nil
            let targetCame = watch != nil && target == nil && SymbolicLinks.finalTarget(of: path) != nil
            if !directoryCame, !targetCame { return nil }
        }
        return failure
    }

    /// Watches the directory of the file a symbolic link at `path` leads to, if it is one.
    private func followLink() {
        let newTarget = watch == nil ? nil : SymbolicLinks.finalTarget(of: path)
        guard newTarget != target?.path else { return }
        let old = target
        target = nil
        targetWriting = false
        if let newTarget {
            let targetWatch = inotify_add_watch(descriptor, Self.split(newTarget).directory, Self.events | UInt32(IN_ONLYDIR))
            if targetWatch >= 0 { target = (newTarget, targetWatch) }
        }
        if let old { release(old.watch) }
    }

    /// Removes a watch unless another part still uses it: the kernel gives one folder one watch.
    private func release(_ id: Int32) {
        guard id != watch?.id, id != target?.watch, !waypoints.contains(where: { $0.watch == id }) else { return }
        inotify_rm_watch(descriptor, id)
    }

    /// The nearest folder above `missing` that exists, and the name of the next one down. A
    /// link on the way that leads nowhere now is followed: where it leads is what must come
    /// (a dotfiles folder it names, cloned again).
    private static func nearestExisting(above missing: String, hops: Int = 0) -> Waypoint {
        if hops < SymbolicLinks.hopLimit, access(missing, F_OK) != 0, let next = SymbolicLinks.next(after: missing) {
            return nearestExisting(above: next, hops: hops + 1)
        }
        var (folder, child) = split(missing)
        while access(folder, F_OK) != 0, folder != "/", folder != "." {
            if hops < SymbolicLinks.hopLimit, let next = SymbolicLinks.next(after: folder) {
                return nearestExisting(above: next + "/" + child, hops: hops + 1)
            }
            (folder, child) = split(folder)
        }
        return Waypoint(folder: folder, child: child)
    }

    /// Each folder on the way to `directory`, itself included, that is a symbolic link, as the
    /// folder holding it and its name.
    private static func linksOnTheWay(to directory: String) -> [Waypoint] {
        SymbolicLinks.linkedFolders(onTheWayTo: directory).map { link in
            let (folder, child) = split(link)
            return Waypoint(folder: folder, child: child, holdsLink: true)
        }
    }

    /// Each folder above `folder` (a real path), up to the root, to be watched for itself
    /// moving or going (an empty `child`).
    /// Whether others than the user and root may change `folder`: writable by group or others
    /// and not sticky, or another user's. Found in review: a folder above the config's that
    /// refused it, mended as the refusal said, was not watched for it, and the config stayed
    /// refused until the next login.
    private static func othersMayChange(_ folder: String) -> Bool {
        var status = stat()
        guard stat(folder, &status) == 0 else { return false }
        let writable = status.st_mode & (S_IWGRP | S_IWOTH) != 0 && status.st_mode & S_ISVTX == 0
        return writable || (status.st_uid != geteuid() && status.st_uid != 0)
    }

    private static func ancestors(of folder: String) -> [Waypoint] {
        var above: [Waypoint] = []
        var current = split(folder).directory
        while current != "/", current != ".", !current.isEmpty {
            above.append(Waypoint(folder: current, child: "", othersMayChange: othersMayChange(current)))
            current = split(current).directory
        }
        return above
    }

    /// The links a symbolic link at `path` leads through after itself, each as the folder
    /// holding it and its name, and the folders that are links on the way to each hop.
    private static func linksInChain(from path: String) -> [Waypoint] {
        SymbolicLinks.chain(from: path).dropFirst().flatMap { hop in
            let (directory, fileName) = split(hop)
            let holder = SymbolicLinks.isLink(hop)
                ? SymbolicLinks.realPath(directory).map { [Waypoint(folder: $0, child: fileName, holdsLink: true)] } : nil
            return linksOnTheWay(to: directory) + (holder ?? [])
        }
    }

    /// Whether a block of events read from the descriptor says an entry `name` was made or
    /// moved in under `watch` (files coming and going there, a home folder's, are not news).
    static func mentions(_ bytes: ArraySlice<UInt8>, watch: Int32, named name: String) -> Bool {
        var found = false
        forEachEvent(in: bytes) { wd, _, nameBytes in
            if wd == watch, nameBytes.elementsEqual(name.utf8) { found = true }
        }
        return found
    }

    /// Whether a block of events says the mode or owner of the folder under `watch` itself
    /// changed (not of an entry in it).
    static func saysModeChanged(_ bytes: ArraySlice<UInt8>, watch: Int32) -> Bool {
        var changed = false
        forEachEvent(in: bytes) { wd, mask, nameBytes in
            if wd == watch, nameBytes.isEmpty, mask & UInt32(IN_ATTRIB) != 0 { changed = true }
        }
        return changed
    }

    /// Whether a block of events says the folder under `watch` was removed or moved away.
    static func saysGone(_ bytes: ArraySlice<UInt8>, watch: Int32) -> Bool {
        var gone = false
        forEachEvent(in: bytes) { wd, mask, _ in
            if wd == watch, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { gone = true }
        }
        return gone
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

    private static func split(_ path: String) -> (directory: String, fileName: String) {
        SymbolicLinks.split(path)
    }

    /// The changes in a block of `struct inotify_event`s read from the descriptor that concern
    /// `fileName` under `watch` (the file at `path`); `writing`, whether the file is open for
    /// writing, carried from the block before and left as the block leaves it. The caller tells
    /// `.writing`: a block may hold nothing of the writer's but a change of mode.
    static func parse(_ bytes: ArraySlice<UInt8>, watch: Int32, fileName: String, path: String,
                      writing: inout Bool) -> Set<Change> {
        var changes: Set<Change> = []
        var isWriting = writing
        forEachEvent(in: bytes) { wd, mask, nameBytes in
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // Events lost, a close perhaps among them: read it once quiet.
                changes.insert(.file)
                isWriting = false
                return
            }
            guard wd == watch, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) == 0 else { return }
            if nameBytes.elementsEqual(fileName.utf8) {
                changes.insert(.file)
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) != 0 {
                    isWriting = false
                } else if mask & UInt32(IN_MODIFY) != 0 {
                    isWriting = true
                } else if mask & UInt32(IN_CREATE) != 0 {
                    // Made by opening it (`cat >`, `curl -o`), it is open until its writer
                    // closes it, maybe before a byte is written; a link made (`ln`, `ln -s`)
                    // has no writer.
                    isWriting = openedWhenMade(path)
                }
                // A change of mode or times (IN_ATTRIB) leaves a writer writing.
            } else if nameBytes.isEmpty, mask & UInt32(IN_ATTRIB) != 0 {
                // The directory's own mode or owner: whether the file may be trusted.
                changes.insert(.file)
            }
        }
        writing = isWriting
        return changes
    }

    /// Whether a file just made at `path` was made by opening it for writing, as far as can be
    /// told now: a regular file with one name. A symbolic link, or a second name for a file
    /// (`ln`), was made without a writer; a file gone since is no longer being written there.
    private static func openedWhenMade(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG && status.st_nlink == 1
    }
}
