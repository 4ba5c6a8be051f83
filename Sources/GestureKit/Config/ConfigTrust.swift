import Glibc

/// Whether a config file may be trusted: its `command` actions run as the user, so nobody
/// else may be able to change it. Like OpenSSH's StrictModes: the file (after symbolic links)
/// and the directory holding it must belong to the user or to root, and neither may be
/// writable by group or others. A sticky directory such as /tmp may be writable by all: there
/// only a file's owner can replace it. A config that is a symbolic link (a dotfiles checkout)
/// is held to the same for each folder holding a link on the way: whoever may write one may
/// point its link at any file of the user's.
public enum ConfigTrust {
    /// Why the file at `path` cannot be trusted by `user`, with how to fix it; nil when it can,
    /// or when it cannot be examined (reading it then says what is wrong).
    public static func problem(forConfigAt path: String, user: uid_t = geteuid(),
                               environment: [String: String] = ProcessEnvironment.current) -> String? {
        guard let file = SymbolicLinks.realPath(path) else { return nil }
        var status = stat()
        guard stat(file, &status) == 0 else { return nil }
        let named = file == path ? path : "\(path) (\(file))"
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            // No config: reading it says so.
            return nil
        case S_IFREG:
            if let problem = problem(with: status, of: "the config file \(named)", fixing: file, user: user, isDirectory: false,
                                     copyTo: copyAdvice(for: path, file: file, environment: environment)) {
                return problem
            }
        default:
            // A device (`/dev/null`, `/dev/stdin`) or a pipe is written by whoever may: judged by
            // its owner alone, as advice to `chmod` one would break it for everybody. Found in
            // review: another user's named pipe, made where a config was and fed, ran his
            // bindings' commands as the user.
            if status.st_uid != user && status.st_uid != 0 {
                return "the config file \(named) is a pipe or device of another user (uid \(status.st_uid)), who writes what it reads: "
                    + "its bindings' `command` actions would run as you; keep the config in a file of your own"
            }
            return nil
        }
        let directory = SymbolicLinks.split(file).directory
        guard stat(directory, &status) == 0 else { return nil }
        if let problem = problem(with: status, of: "the directory \(directory) holding the config file", fixing: directory,
                                 user: user, isDirectory: true) {
            return problem
        }
        for folder in linkFolders(from: path) where folder != directory {
            guard stat(folder, &status) == 0 else { continue }
            if let problem = problem(with: status, of: "the directory \(folder) holding a link to the config file",
                                     fixing: folder, user: user, isDirectory: true) {
                return problem
            }
        }
        // The folders above them too, as OpenSSH's StrictModes asks: whoever may write one may
        // swap the folder below it for one of theirs between this look and the read. Found in
        // review: a group-writable folder above the user's own let one of the group feed it
        // their config, one read in twenty.
        let holding = [directory] + linkFolders(from: path)
        var seen = Set(holding)
        for folder in holding {
            for above in Self.folders(above: folder) where seen.insert(above).inserted {
                guard stat(above, &status) == 0 else { continue }
                if let problem = problem(with: status, of: "the directory \(above) above the config file", fixing: above,
                                         user: user, isDirectory: true, privateGroupAllowed: true) {
                    return problem
                }
            }
        }
        return nil
    }

    /// Whether `group` is `user`'s own: their primary group, of their name, with no members
    /// listed (a user private group).
    static func isPrivateGroup(_ gid: gid_t, of user: uid_t) -> Bool {
        var account = passwd()
        var accountResult: UnsafeMutablePointer<passwd>?
        var accountBuffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(user, &account, &accountBuffer, accountBuffer.count, &accountResult) == 0, accountResult != nil,
              account.pw_gid == gid, let userName = account.pw_name.map({ String(cString: $0) }) else { return false }
        var entry = Glibc.group()
        var entryResult: UnsafeMutablePointer<Glibc.group>?
        var entryBuffer = [CChar](repeating: 0, count: 16384)
        guard getgrgid_r(gid, &entry, &entryBuffer, entryBuffer.count, &entryResult) == 0, entryResult != nil,
              entry.gr_name.map({ String(cString: $0) }) == userName else { return false }
        // No member listed but, at most, the user.
        var index = 0
        while let member = entry.gr_mem?[index] {
            if String(cString: member) != userName { return false }
            index += 1
        }
        return true
    }

    /// The folders above `folder` (a real path), nearest first, `/` last.
    private static func folders(above folder: String) -> [String] {
        var parts = folder.split(separator: "/").map(String.init)
        var found: [String] = []
        while !parts.isEmpty {
            parts.removeLast()
            found.append("/" + parts.joined(separator: "/"))
        }
        return found
    }

    /// The folders (real paths) holding each symbolic link on the way from `path` to the file:
    /// the file's own links, and folders on the way that are links (a dotfiles folder linked
    /// in), on `path` and on each link's target.
    private static func linkFolders(from path: String) -> [String] {
        let hops = SymbolicLinks.chain(from: path)
        let links = hops.flatMap { SymbolicLinks.linkedFolders(onTheWayTo: SymbolicLinks.split($0).directory) } + hops.dropLast()
        return links.compactMap { SymbolicLinks.realPath(SymbolicLinks.split($0).directory) }
    }

    /// How a person who is not root makes a copy of their own of `file` (reached as `path`):
    /// their own config's path (or a link there) made a copy in place, its folder kept; any
    /// other file copied beside their home, named with `--config`. Found in review: a plain
    /// `cp` onto the user's config failed as "the same file" through a link, and in a folder
    /// not made yet.
    private static func copyAdvice(for path: String, file: String, environment: [String: String]) -> String {
        if let own = ConfigSource.userConfigPath(environment: environment), SymbolicLinks.sameFile(own, path) {
            let fresh = ShellLine.quoted(own + ".new")
            return "make it a copy of your own: `cp \(ShellLine.quoted(file)) \(fresh) && mv \(fresh) \(ShellLine.quoted(own))`"
        }
        return "copy it to a file of your own and name that: `cp \(ShellLine.quoted(file)) ~/gesture-bridge.yaml`, then "
            + "`--config ~/gesture-bridge.yaml`"
    }

    /// `privateGroupAllowed`: writable by the user's own group, which nobody else is in (a user
    /// private group, as Debian and Ubuntu give each user, whose umask 002 makes `~/.config`
    /// group-writable), counts as the user's alone.
    private static func problem(with status: stat, of what: String, fixing path: String, user: uid_t,
                                isDirectory: Bool, copyTo copyAdvice: String? = nil, privateGroupAllowed: Bool = false) -> String? {
        let consequence = "its bindings' `command` actions would run as you"
        if status.st_uid != user && status.st_uid != 0 {
            // Only root may give a file away: anyone else copies it (found in review of a school
            // lab, where a config copied from a friend's account was advised a `chown`).
            let remedy = user == 0 ? "use a config of your own, or take it over with `chown \(user) \(ShellLine.quoted(path))`"
                : isDirectory ? "keep the config in a folder of your own"
                : copyAdvice ?? "keep the config in a folder of your own"
            return "\(what) belongs to another user (uid \(status.st_uid)), who could change it: \(consequence); \(remedy)"
        }
        let groupWritable = status.st_mode & S_IWGRP != 0 && !(privateGroupAllowed && isPrivateGroup(status.st_gid, of: user))
        let writableByOthers = groupWritable || status.st_mode & S_IWOTH != 0
        let sticky = isDirectory && status.st_mode & S_ISVTX != 0
        if writableByOthers && !sticky {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            // Root's folder is not the user's to change (a shared folder an administrator made).
            let remedy = status.st_uid == user ? "fix it with `chmod go-w \(ShellLine.quoted(path))`"
                : "keep the config in a folder only you (and root) may change"
            return "\(what) can be changed by other users (mode \(String(repeating: "0", count: max(0, 4 - mode.count)) + mode)): "
                + "\(consequence); \(remedy)"
        }
        return nil
    }
}
