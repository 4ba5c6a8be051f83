import Glibc

/// A small file read whole with read(2); the error is the system's own words ("no such
/// file", "Is a directory").
package enum FileContents {
    /// Reads into an array sized by the file, with a byte of room over it so the read that
    /// finds the end needs no more storage; a file that reports no size (a pipe, a /proc file)
    /// or grew since is read on a page at a time. (A fixed 64 KiB chunk, zero-filled for every
    /// file, stayed in the bridge's heap as dirty pages for its whole life once the config or
    /// the learned state had been read.)
    ///
    /// A pipe (process substitution, `<(…)`, or a named pipe) is read as its writer writes, and
    /// with `pipeWait`, for at most that many seconds from one piece to the next: a running
    /// bridge's reload (found in review: a named pipe whose writer held it open and wrote nothing
    /// left the bridge reading it for good, deaf to SIGTERM, every press it held back frozen).
    /// Without it, as long as the writer takes (`gpg -d … | gesture-bridge check -` asking for a
    /// passphrase).
    ///
    /// More than `limit` bytes is refused (`EFBIG`): no config or state file comes near it, and
    /// `check /dev/zero` read on until memory ran out (found in review).
    package static let limit = 64 << 20

    package static func read(_ path: String, pipeWait: Double? = nil) throws(FileReadError) -> [UInt8] {
        let descriptor = try openForReading(path, blocking: false)
        defer { close(descriptor) }
        var status = stat()
        let known = fstat(descriptor, &status) == 0
        let size = known ? max(Int(status.st_size), 0) : 0
        // Said too large by its size, before a byte is read (a file of gigabytes, named by
        // mistake, was read whole first, or ran the process out of memory: found in review).
        if size > limit { throw FileReadError(code: EFBIG) }
        // A regular file (and a /proc file) has its bytes at once: read as usual, waiting.
        if known, status.st_mode & S_IFMT == S_IFREG {
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        }
        var contents: [UInt8] = []
        var room = size > 0 ? size + 1 : 4096
        while true {
            let filled = contents.count
            contents.append(contentsOf: repeatElement(0, count: room))
            let count = contents.withUnsafeMutableBytes { bytes in
                Glibc.read(descriptor, bytes.baseAddress.map { $0 + filled }, room)
            }
            let code = errno
            contents.removeLast(room - max(count, 0))
            if count == 0 { return contents }
            if contents.count > limit { throw FileReadError(code: EFBIG) }
            if count < 0 {
                if code == EINTR { continue }
                if code == EAGAIN {
                    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&entry, 1, pipeWait.map { Int32($0 * 1000) } ?? -1)
                    if ready > 0 || (ready < 0 && errno == EINTR) { continue }
                    throw FileReadError(code: ETIMEDOUT)
                }
                throw FileReadError(code: code)
            }
            let spare = contents.capacity - contents.count
            // A stream of unknown length is read in pieces that grow with it, up to a megabyte.
            room = size > 0 && contents.count >= size && spare > 0 ? spare : max(4096, min(contents.count, 1 << 20))
        }
    }
}

extension FileContents {
    /// Opens `path` to read, without waiting for a writer: a named pipe nobody writes to
    /// (`mkfifo`) would hold `open` for ever; opened so, it reads as empty. Reads then wait for
    /// data as usual (process substitution, `<(…)`, still reads whole).
    package static func openForReading(_ path: String, blocking: Bool = true) throws(FileReadError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileReadError(code: errno) }
        guard blocking else { return descriptor }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }
}

extension FileContents {
    /// Replaces the file at `path` whole: `bytes` go to a temporary file beside it (of `mode`),
    /// which is synced and renamed over the old one, so a crash or a full disk leaves the old
    /// file or the new, never half of one.
    package static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(FileReadError) {
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileReadError(code: errno) }
        /// The call's failure, the temporary file gone: the old file stays whole.
        func failed(closing: Bool) -> FileReadError {
            let code = errno
            if closing { close(descriptor) }
            unlink(temporary)
            return FileReadError(code: code)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failed(closing: true)
            }
            written += count
        }
        // A full disk or a failing one may say so only here: the new file is not on it, so it
        // must not replace the old.
        guard fsync(descriptor) == 0 else { throw failed(closing: true) }
        guard close(descriptor) == 0 else { throw failed(closing: false) }
        guard rename(temporary, path) == 0 else { throw failed(closing: false) }
    }

    /// Makes the folder `path` and those above it that are missing, each of `mode`.
    package static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(FileReadError) {
        var partial = ""
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, mode) != 0 && errno != EEXIST { throw FileReadError(code: errno) }
        }
    }
}

extension FileContents {
    /// A file name made from `readable` (letters and digits kept, anything else a dash) and a
    /// short hash of all of `whole` (FNV-1a), so two that read alike do not share a file.
    package static func name(for readable: some Sequence<Unicode.Scalar>, hashing whole: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in whole.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let letters = String(readable.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "-"
        })
        let hex = String(hash, radix: 16)
        return letters + "-" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}

package struct FileReadError: Error {
    package var code: Int32

    package var reason: String {
        switch code {
        case ENOENT: "no such file"
        // `FileContents.read`'s own: a pipe whose writer stopped writing.
        case ETIMEDOUT: "nothing more came from it for seconds (a pipe whose writer holds it open and writes nothing)"
        case EFBIG: "it is larger than \(FileContents.limit >> 20) MiB, which no config or state file is"
        default: String(cString: strerror(code))
        }
    }
}
