import Foundation
import GestureKit
import Testing

/// The fuzzers' seed corpus and every input kept as a regression (a crash the fuzzers found,
/// or a hostile input written by hand) go through the readers on every test run: the corpus
/// must read, the regressions must be refused with an error that says where and what.
@Suite("Fuzzing corpus and regressions")
struct FuzzRegressionTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func files(_ folder: String) -> [URL] {
        let url = fuzzFolder.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { url.appendingPathComponent($0) }
    }

    @Test("every config in the seed corpus reads, and renders back to the same bindings", arguments: files("corpus/config"))
    func configCorpus(_ file: URL) throws {
        let bindings = try ConfigLoader.load(path: file.path)
        #expect(try ConfigLoader.parse(ConfigRenderer.render(bindings), file: "rendered.yaml") == bindings)
    }

    @Test("every config regression is refused with a located error", arguments: files("regressions/config"))
    func configRegression(_ file: URL) {
        let error = #expect(throws: ConfigError.self, "\(file.lastPathComponent) was accepted") {
            try ConfigLoader.load(path: file.path)
        }
        #expect(error?.description.hasPrefix(file.path) == true, "\(String(describing: error))")
        #expect(error?.description.contains("error:") == true, "\(String(describing: error))")
    }

    @Test("every trace in the seed corpus reads, replays and analyzes", arguments: files("corpus/trace"))
    func traceCorpus(_ file: URL) throws {
        let trace = try TraceReader.load(path: file.path)
        #expect(!trace.events.isEmpty)
        _ = TraceReplay.run(trace, configuration: ConfigLoader.builtInDefault)
        _ = PressureStatistics.analyze(trace)
    }

    @Test("every trace regression is refused with an error naming the file", arguments: files("regressions/trace"))
    func traceRegression(_ file: URL) {
        let error = #expect(throws: TraceError.self, "\(file.lastPathComponent) was accepted") {
            try TraceReader.load(path: file.path)
        }
        #expect(error?.file == file.path)
        #expect(error?.message.isEmpty == false)
    }

    @Test("both regression folders hold inputs, so the tests above run at all")
    func foldersAreFound() {
        #expect(!Self.files("regressions/config").isEmpty)
        #expect(!Self.files("regressions/trace").isEmpty)
        #expect(!Self.files("corpus/config").isEmpty)
        #expect(!Self.files("corpus/trace").isEmpty)
    }
}
