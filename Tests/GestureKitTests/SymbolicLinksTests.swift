import Foundation
import Glibc
import Testing
@testable import GestureKit

/// The links from a config's path to its file, hop by hop, as the kernel follows them: a
/// dotfiles checkout's relative links, folder links, a link whose target is missing, a loop.
@Suite("Symbolic links, hop by hop", .serialized)
struct SymbolicLinksTests {
    /// A fresh directory (its real path) for the test's body.
    static func inDirectory(_ body: (_ directory: String) throws -> Void) throws {
        var template = Array((NSTemporaryDirectory() + "/links-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template), let directory = SymbolicLinks.realPath(String(cString: made)) else {
            Issue.record("cannot make a directory")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test("a relative link is read from its own folder, each hop as written, through a folder link to the file")
    func chainThroughAFolderLink() throws {
        try Self.inDirectory { directory in
            #expect(mkdir(directory + "/dotfiles", 0o755) == 0)
            #expect(FileManager.default.createFile(atPath: directory + "/dotfiles/gb.yaml", contents: Data()))
            #expect(symlink("dotfiles", directory + "/current") == 0)
            #expect(mkdir(directory + "/config", 0o755) == 0)
            #expect(symlink("../current/gb.yaml", directory + "/config/gb.yaml") == 0)

            let path = directory + "/config/gb.yaml"
            #expect(SymbolicLinks.chain(from: path) == [path, directory + "/config/../current/gb.yaml"])
            #expect(SymbolicLinks.end(from: path) == directory + "/config/../current/gb.yaml")
            #expect(SymbolicLinks.finalTarget(of: path) == directory + "/dotfiles/gb.yaml")
            #expect(SymbolicLinks.linkedFolders(onTheWayTo: directory + "/current") == [directory + "/current"])
            #expect(SymbolicLinks.linkedFolders(onTheWayTo: directory + "/config").isEmpty)
        }
    }

    @Test("a file is no link: no chain beyond it, no end, no final target")
    func plainFile() throws {
        try Self.inDirectory { directory in
            let file = directory + "/gb.yaml"
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            #expect(SymbolicLinks.chain(from: file) == [file])
            #expect(SymbolicLinks.end(from: file) == nil)
            #expect(SymbolicLinks.finalTarget(of: file) == nil)
        }
    }

    @Test("a link to a file not there yet ends where it points; one into a missing folder has no final target")
    func missingTargets() throws {
        try Self.inDirectory { directory in
            #expect(symlink("later.yaml", directory + "/gb.yaml") == 0)
            #expect(SymbolicLinks.finalTarget(of: directory + "/gb.yaml") == directory + "/later.yaml")
            #expect(symlink("/nowhere-at-all/gb.yaml", directory + "/lost.yaml") == 0)
            #expect(SymbolicLinks.end(from: directory + "/lost.yaml") == "/nowhere-at-all/gb.yaml")
            #expect(SymbolicLinks.finalTarget(of: directory + "/lost.yaml") == nil)
        }
    }

    @Test("links that loop stop at the kernel's limit and lead nowhere")
    func loop() throws {
        try Self.inDirectory { directory in
            #expect(symlink("b.yaml", directory + "/a.yaml") == 0)
            #expect(symlink("a.yaml", directory + "/b.yaml") == 0)
            #expect(SymbolicLinks.chain(from: directory + "/a.yaml").count == SymbolicLinks.hopLimit + 1)
            #expect(SymbolicLinks.end(from: directory + "/a.yaml") == nil)
            #expect(SymbolicLinks.finalTarget(of: directory + "/a.yaml") == nil)
        }
    }

    @Test("a path is split at its last slash: a bare name is in `.`, a name at the top in `/`")
    func split() {
        #expect(SymbolicLinks.split("gb.yaml") == (".", "gb.yaml"))
        #expect(SymbolicLinks.split("/gb.yaml") == ("/", "gb.yaml"))
        #expect(SymbolicLinks.split("a/b/gb.yaml") == ("a/b", "gb.yaml"))
    }
}
