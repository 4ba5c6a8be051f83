import Glibc

/// A small file read whole with read(2); the error is the system's own words ("no such
/// file", "Is a directory").
package enum FileContents {
    /// Reads into an array sized by the file, with a byte of room over it so the read that
    /// finds the end needs no more storage; a file that reports no size (a pipe, a /proc file)
    /// or grew since is read on a page at a time. (A fixed 64 KiB chunk, zero-filled for every
    /// file, stayed in the bridge's heap as dirty pages for its whole life once the config or
    /// the learned state had been read.)
    package static func read(_ path: String) throws(FileReadError) -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? max(Int(status.st_size), 0) : 0
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
            if count < 0 {
                if code == EINTR { continue }
                throw FileReadError(code: code)
            }
            let spare = contents.capacity - contents.count
            room = size > 0 && contents.count >= size && spare > 0 ? spare : 4096
        }
    }
}

extension FileContents {
    /// Opens `path` to read, without waiting for a writer: a named pipe nobody writes to
    /// (`mkfifo`) would hold `open` for ever; opened so, it reads as empty. Reads then wait for
    /// data as usual (process substitution, `<(…)`, still reads whole).
    package static func openForReading(_ path: String) throws(FileReadError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileReadError(code: errno) }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }
}

package struct FileReadError: Error {
    package var code: Int32

    package var reason: String { code == ENOENT ? "no such file" : String(cString: strerror(code)) }
}
