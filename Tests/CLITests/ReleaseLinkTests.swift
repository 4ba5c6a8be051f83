import Foundation
import Glibc
import Testing

/// The release link places the code the listening bridge runs first, in the order
/// `dist/link-order.txt` gives (Makefile, `scripts/link-order`): checked on the binary
/// `make test` builds first, so a link that stopped applying the order, or an order that no
/// longer names this code, fails here rather than only in a benchmark.
@Suite("The release link")
struct ReleaseLinkTests {
    static let orderFile = GestureBridgeExecutable.repositoryRoot.appendingPathComponent("dist/link-order.txt").path

    @Test("the release binary's code starts with the link order's first function, and the order names this build's functions",
          .enabled(if: FileManager.default.isExecutableFile(atPath: DebPackageTests.releaseBinary),
                   "needs the release binary: `make release` (make test builds it first)"))
    func hotCodeFirst() throws {
        let order = try String(contentsOfFile: Self.orderFile, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(order.count > 100, "dist/link-order.txt lists \(order.count) functions")
        let listing = try runTool("/usr/bin/nm", ["--numeric-sort", "--defined-only", DebPackageTests.releaseBinary])
        try #require(listing.status == 0, "\(listing.output)")
        // Code symbols in address order: `address type name`, type t or T.
        let code = listing.output.split(separator: "\n").compactMap { line -> Substring? in
            let fields = line.split(separator: " ")
            return fields.count == 3 && (fields[1] == "t" || fields[1] == "T") ? fields[2] : nil
        }
        #expect(code.first.map(String.init) == order.first,
                "the code starts with \(code.first ?? "nothing"), not \(order[0]): was the binary linked by `make release`?")
        let names = Set(code.map(String.init))
        let missing = order.filter { !names.contains($0) }
        #expect(missing.count * 10 <= order.count,
                "\(missing.count) of \(order.count) functions in dist/link-order.txt are not in this build (first: \(missing.prefix(3))); run scripts/link-order")
    }
}
