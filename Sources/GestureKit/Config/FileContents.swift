import Glibc

/// A small file read whole with read(2); the error is the system's own words ("no such
/// file", "Is a directory").
package enum FileContents {
    package static func read(_ path: String) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(code: errno) }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(code: errno)
            }
            contents.append(contentsOf: chunk[..<count])
        }
    }
}

package struct FileReadError: Error {
    package var code: Int32

    package var reason: String { code == ENOENT ? "no such file" : String(cString: strerror(code)) }
}
