import Foundation
import Testing
@testable import GestureKit

@Suite("The learned state file")
struct LearnedStateTests {
    /// A store in a folder `gesture-bridge` of its own under the temporary directory, made as
    /// the store writes; the whole folder removed after `body`.
    static func withStore(_ body: (LearnedStateStore, _ directory: String) throws -> Void) throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("learned-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/gesture-bridge"
        try body(LearnedStateStore(directory: directory), directory)
    }

    static func learned() -> HandLearner {
        var learner = HandLearner()
        for index in 0..<30 { learner.record(.ordinary(peak: 0.06 + 0.004 * Double(index))); _ = learner.settle() }
        learner.record(.deliberate(peak: 0.44))
        _ = learner.settle()
        return learner
    }

    @Test("a learner written and read back is the same learner (but for contacts not yet settled)")
    func roundTrip() throws {
        let learner = Self.learned()
        let text = LearnedStateFile.encode(device: "Pen: with odd name/…", learner: learner)
        let (device, read) = try #require(LearnedStateFile.decode(text))
        #expect(device == "Pen: with odd name/…")
        #expect(read.levels == learner.levels)
        #expect(read.ordinaryContacts == 30)
        #expect(read.deliberatePresses == 1)
        #expect(read.ordinaryPeaks.count == learner.ordinaryPeaks.count)
        #expect(read.moving == learner.moving)
    }

    /// Ordinary contacts held still are told from taps and strokes (`HandLearningTests.heldStillApart`):
    /// which ones, the file says on a line of its own, written only when there are any, so a
    /// file without it (every file earlier versions wrote) reads as it did, with none.
    @Test("which ordinary contacts were held still is kept on a `still` line; a file without one reads with none; a bad one is refused")
    func heldStillKept() throws {
        var learner = Self.learned()
        #expect(!LearnedStateFile.encode(device: "Pen", learner: learner).contains("\nstill "), "none: no line, as earlier versions wrote")
        learner.record(.heldStill(peak: 0.2))
        learner.record(.ordinary(peak: 0.1))
        learner.record(.heldStill(peak: 0.25))
        _ = learner.settle()
        #expect(learner.heldStill == [30, 32])
        let text = LearnedStateFile.encode(device: "Pen", learner: learner)
        #expect(text.hasSuffix("\nstill 30 32\n"))
        let (_, read) = try #require(LearnedStateFile.decode(text))
        #expect(read.heldStill == [30, 32])
        #expect(read.ordinaryPeaks.count == 33)
        #expect(read.countedOrdinaryPeaks.count == learner.countedOrdinaryPeaks.count)
        // As an earlier version wrote it: the same state, none of it held still.
        let earlier = try #require(LearnedStateFile.decode(text.replacingOccurrences(of: "still 30 32\n", with: "")))
        #expect(earlier.learner.heldStill.isEmpty)
        #expect(earlier.learner.ordinaryPeaks == read.ordinaryPeaks)
        for bad in ["still \n", "still 33\n", "still 32 30\n", "still 30 30\n", "still -1\n", "still 3.5\n", "still x\n"] {
            #expect(LearnedStateFile.decode(text.replacingOccurrences(of: "still 30 32\n", with: bad)) == nil, "\(bad)")
        }
        #expect(LearnedStateFile.decode(text + "still 31\n") == nil, "repeated")
    }

    /// Found in review of a week of learning: a heavy hand's quick presses, waiting for two
    /// dozen to show its taps reach the threshold, were forgotten at every stop.
    @Test("quick presses still to be judged are kept, as version 3; without any a file is version 2 as before; a bad line is refused")
    func quickKept() throws {
        var learner = HandLearner()
        for peak in [0.78, 0.81, 0.75] { learner.record(.quick(peak: peak)); _ = learner.settle() }
        learner.record(.ordinary(peak: 0.3))
        learner.record(.quick(peak: 0.8))
        _ = learner.settle()
        #expect(learner.unjudgedQuick == [0.78, 0.81, 0.75, 0.8] && learner.unjudgedQuickAfter == [0, 0, 0, 1])
        let text = LearnedStateFile.encode(device: "Pen", learner: learner)
        #expect(text.contains("\nversion 3\n") && text.hasSuffix("\nquick 0.78 0.81 0.75 0.8\nquick-after 0 0 0 1\n"), "\(text)")
        let (_, read) = try #require(LearnedStateFile.decode(text))
        #expect(read.unjudgedQuick == learner.unjudgedQuick && read.unjudgedQuickAfter == learner.unjudgedQuickAfter)
        #expect(LearnedStateFile.encode(device: "Pen", learner: Self.learned()).contains("\nversion 2\n"))
        for bad in ["quick-after 0 0 0\n", "quick-after 0 0 1 0\n", "quick-after 0 0 0 5\n", "quick-after 0 0 0 x\n"] {
            #expect(LearnedStateFile.decode(text.replacingOccurrences(of: "quick-after 0 0 0 1\n", with: bad)) == nil, "\(bad)")
        }
        #expect(LearnedStateFile.decode(text.replacingOccurrences(of: "quick-after 0 0 0 1\n", with: "")) == nil, "half of it")
        #expect(LearnedStateFile.decode(text.replacingOccurrences(of: "quick 0.78", with: "quick 1.78")) == nil)
    }

    @Test("damaged files are refused: missing or repeated lines, levels out of bounds, numbers that are not")
    func damaged() throws {
        let good = LearnedStateFile.encode(device: "Pen", learner: Self.learned())
        #expect(LearnedStateFile.decode(good) != nil)
        #expect(LearnedStateFile.decode("") == nil)
        #expect(LearnedStateFile.decode(good.replacingOccurrences(of: "version 2", with: "version 3")) == nil)
        #expect(LearnedStateFile.decode(good.replacingOccurrences(of: "version 2", with: "version 1")) != nil, "an earlier version's")
        #expect(LearnedStateFile.decode(good + "device Other\n") == nil)
        #expect(LearnedStateFile.decode(good.replacingOccurrences(of: "moving false", with: "moving maybe")) == nil)
        let outOfBounds = good.split(separator: "\n").map { $0.hasPrefix("levels") ? "levels 0.95 0.5 0.3" : String($0) }.joined(separator: "\n")
        #expect(LearnedStateFile.decode(outOfBounds) == nil)
        let notNumbers = good.split(separator: "\n").map { $0.hasPrefix("ordinary") ? "ordinary 0.1 nan" : String($0) }.joined(separator: "\n")
        #expect(LearnedStateFile.decode(notNumbers) == nil)
    }

    /// Found in review of an upgrade: bridges of a short while before version 2 remembered up to
    /// 300 ordinary peaks and wrote them all; such a file was called damaged, set aside, and
    /// learning began afresh.
    @Test("a version 1 file with more peaks than the rule keeps now: read, its newest peaks kept; a version 2 one so is damaged")
    func earlierFileWithLongerWindows() throws {
        let ordinary = (0..<120).map { Double(5 + $0 % 10) / 100 }
        let deliberate = (0..<25).map { Double(50 + $0) / 100 }
        let text = """
            version 1
            device Big Pen
            levels 0.45 0.32 0.14
            moving false
            calibrated false
            contacts 150 25
            ordinary \(ordinary.map { JSONLine.number($0) }.joined(separator: " "))
            deliberate \(deliberate.map { JSONLine.number($0) }.joined(separator: " "))

            """
        let read = try #require(LearnedStateFile.decode(text))
        #expect(read.learner.ordinaryPeaks == Array(ordinary.suffix(LearningRule.ordinaryWindow)))
        #expect(read.learner.deliberatePeaks == Array(deliberate.suffix(LearningRule.deliberateWindow)))
        #expect(read.learner.ordinaryContacts == 150 && read.learner.levels?.threshold == 0.45)
        #expect(LearnedStateFile.decode(text.replacingOccurrences(of: "version 1", with: "version 2")) == nil)
    }

    /// Found in review: a file cut short inside its last line read as good, its last peak or
    /// its list of deliberate presses shortened.
    @Test("a file cut short anywhere in its last line is refused, with deliberate presses kept and with none")
    func cutShort() throws {
        var none = Self.learned()
        none = try #require(HandLearner(ordinaryPeaks: none.ordinaryPeaks, deliberatePeaks: [], ordinaryContacts: none.ordinaryContacts,
                                        deliberatePresses: 0, levels: none.levels, moving: none.moving, calibrated: false))
        for learner in [Self.learned(), none] {
            let good = LearnedStateFile.encode(device: "Pen", learner: learner)
            #expect(LearnedStateFile.decode(good) != nil)
            for cut in 1...6 {
                #expect(LearnedStateFile.decode(String(good.dropLast(cut))) == nil, "cut \(cut) from \(good)")
            }
        }
    }

    @Test("the store writes a file per device, mode 0600, sets a damaged one aside, and resets one or all")
    func store() throws {
        try Self.withStore { store, directory in
            try store.save(device: "Pen A", learner: Self.learned())
            try store.save(device: "Pen B", learner: Self.learned())
            let path = directory + "/" + store.fileName(for: "Pen A")
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            #expect(store.fileName(for: "Pen A") != store.fileName(for: "Pen-A"))
            var loaded = store.load(settingAside: true)
            #expect(Set(loaded.learning.devices.keys) == ["Pen A", "Pen B"])
            #expect(loaded.damaged.isEmpty)
            try "version 1\ngarbage\n".write(toFile: directory + "/x.learned", atomically: true, encoding: .utf8)
            loaded = store.load(settingAside: true)
            #expect(loaded.damaged == [directory + "/x.learned"])
            #expect(FileManager.default.fileExists(atPath: directory + "/x.learned.damaged"))
            #expect(store.reset(device: "Pen A") == ["Pen A"])
            #expect(Array(store.load(settingAside: true).learning.devices.keys) == ["Pen B"])
            #expect(store.reset() == ["Pen B"])
            #expect(store.load(settingAside: true).learning.devices.isEmpty)
        }
    }

    /// Found in review: a file the bridge could not read (a root-owned one, left by `sudo
    /// gesture-bridge calibrate --write`) was taken for damaged, set aside, and its state and
    /// calibrated mark written over. A folder in a state file's place gives a read error root
    /// gets too.
    /// What cannot be read, even by root: a folder in the file's place, and a link that leads
    /// to itself (a rename would replace that one: only the read before the write keeps it).
    enum Unreadable: String, CaseIterable, CustomTestStringConvertible {
        case folder
        case loopingLink

        var testDescription: String { rawValue }

        func make(at path: String) throws {
            switch self {
            case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .loopingLink: #expect(symlink(path, path) == 0)
            }
        }

        /// Whether it is still there, as made.
        func isThere(at path: String) -> Bool {
            switch self {
            case .folder:
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            case .loopingLink:
                return (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == path
            }
        }
    }

    @Test("a state file that cannot be read is left where it is, said why, and never written over", arguments: Unreadable.allCases)
    func unreadableLeftAlone(_ unreadable: Unreadable) throws {
        try Self.withStore { store, directory in
            try store.save(device: "Pen B", learner: Self.learned())
            let path = directory + "/" + store.fileName(for: "Pen A")
            try unreadable.make(at: path)
            for settingAside in [true, false] {
                let loaded = store.load(settingAside: settingAside)
                #expect(loaded.damaged.isEmpty)
                #expect(loaded.unreadableFiles.map(\.path) == [path])
                #expect(Array(loaded.learning.devices.keys) == ["Pen B"])
            }
            #expect(!FileManager.default.fileExists(atPath: path + ".damaged"))
            #expect(unreadable.isThere(at: path))
            #expect(throws: LearnedStateError.self) { try store.save(device: "Pen A", learner: Self.learned()) }
            #expect(throws: LearnedStateError.self) { try store.markCalibrated(device: "Pen A") }
            #expect(unreadable.isThere(at: path))
            #expect((try? FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }) == [])
        }
    }

    @Test("a command that only reads leaves a damaged file where it is; only the bridge's load sets it aside")
    func readingSetsNothingAside() throws {
        try Self.withStore { store, directory in
            try store.save(device: "Pen A", learner: Self.learned())
            let damaged = directory + "/x.learned"
            try "version 1\ngarbage\n".write(toFile: damaged, atomically: true, encoding: .utf8)
            let read = store.load(settingAside: false)
            #expect(read.damaged == [damaged] && Array(read.learning.devices.keys) == ["Pen A"])
            #expect(FileManager.default.fileExists(atPath: damaged))
            #expect(!FileManager.default.fileExists(atPath: damaged + ".damaged"))
            #expect(store.reset(device: "Pen A") == ["Pen A"])
            #expect(FileManager.default.fileExists(atPath: damaged), "--reset of another device leaves it too")
        }
    }

    @Test("a file another version wrote is neither read, nor set aside, nor written over; learned --reset of its device removes it")
    func otherVersionLeftAlone() throws {
        try Self.withStore { store, directory in
            try store.save(device: "Pen A", learner: Self.learned())
            let path = directory + "/" + store.fileName(for: "Pen A")
            let newer = "version \(LearnedStateFile.readable.upperBound + 1)\ndevice Pen A\nsomething new 1 2 3\n"
            try newer.write(toFile: path, atomically: true, encoding: .utf8)
            let loaded = store.load(settingAside: true)
            #expect(loaded.otherVersion == [path] && loaded.damaged.isEmpty && loaded.learning.devices.isEmpty)
            #expect(throws: LearnedStateError.self) { try store.save(device: "Pen A", learner: Self.learned()) }
            #expect(throws: LearnedStateError.self) { try store.markCalibrated(device: "Pen A") }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == newer)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [store.fileName(for: "Pen A")])
            // Asked to forget the device, `learned --reset` forgets it whatever wrote it.
            #expect(store.reset(device: "Pen A") == ["Pen A"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        }
    }

    @Test("a folder not made yet is nothing learned; one that cannot be read says so, and why")
    func unreadableFolder() throws {
        try Self.withStore { store, directory in
            #expect(store.load(settingAside: true).unreadable == nil)
            try FileManager.default.createDirectory(atPath: (directory as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try "x".write(toFile: directory, atomically: true, encoding: .utf8)
            let loaded = store.load(settingAside: true)
            #expect(loaded.unreadable?.description == "\(directory): Not a directory")
            #expect(loaded.learning.devices.isEmpty)
        }
    }

    @Test("the user's store: XDG_STATE_HOME when absolute, else ~/.local/state")
    func userStore() {
        #expect(LearnedStateStore.user(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.directory == "/s/gesture-bridge")
        #expect(LearnedStateStore.user(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])?.directory == "/h/.local/state/gesture-bridge")
        #expect(LearnedStateStore.user(environment: [:]) == nil)
    }

    @Test("config: `threshold: learned`, `learn: false`, and clear errors for bad values")
    func config() throws {
        let learned = try ConfigLoader.parse("bindings:\n  - {name: rc, gesture: deep-press, threshold: learned, action: {click: right}}\n", file: "c.yaml")
        guard case .deepPress(let press) = learned.bindings.first?.recognizer else { Issue.record("not a deep press"); return }
        #expect(press.learned && press.threshold == 0.7 && press.release == 0.5 && press.ordinary == 0.35)
        #expect(learned.learn)
        let off = try ConfigLoader.parse("learn: false\nbindings:\n  - {name: rc, gesture: deep-press, threshold: learned}\n", file: "c.yaml")
        #expect(off.learn == false)
        let fixed = try ConfigLoader.parse("bindings:\n  - {name: rc, gesture: deep-press, threshold: 0.6}\n", file: "c.yaml")
        guard case .deepPress(let number) = fixed.bindings.first?.recognizer else { Issue.record("not a deep press"); return }
        #expect(!number.learned && number.threshold == 0.6)
        let misspelt = problems("bindings:\n  - {name: rc, gesture: deep-press, threshold: learnt}\n")
        #expect(misspelt.map(\.line) == [2])
        #expect(misspelt.first?.message.contains("`learned`") == true)
        #expect(problems("learn: maybe\nbindings: []\n").map(\.line) == [1])
        #expect(problems("bindings:\n  - {name: s, gesture: squeeze, threshold: learned}\n").map(\.line) == [2])
        // print-config's rendering parses back to the same.
        #expect(try ConfigLoader.parse(ConfigRenderer.render(off), file: "r.yaml") == off)
    }
    @Test("calibrate --write marks a device calibrated: what it learned is kept, learning stops moving it, reset clears it")
    func calibratedState() throws {
        try Self.withStore { store, directory in
            let before = Self.learned()
            try store.save(device: "Pen A", learner: before)
            #expect(store.learner(for: "Pen A")?.calibrated == false)

            try store.markCalibrated(device: "Pen A")
            var kept = try #require(store.learner(for: "Pen A"))
            #expect(kept.calibrated)
            #expect(kept.levels == before.levels && kept.ordinaryContacts == before.ordinaryContacts)
            #expect(kept.effectiveLevels(start: .start) == .start)
            // Learning stops: contacts are not even counted, and nothing settles.
            for _ in 0..<20 { kept.record(.ordinary(peak: 0.05)) }
            let moved = kept.settle()
            #expect(!moved)
            #expect(kept.ordinaryContacts == before.ordinaryContacts && kept.levels == before.levels)
            #expect(store.load(settingAside: true).learning.devices["Pen A"]?.calibrated == true)

            // A device with nothing kept gets a fresh, calibrated state; another device is untouched.
            try store.save(device: "Pen B", learner: before)
            try store.markCalibrated(device: "New Pen")
            let fresh = try #require(store.learner(for: "New Pen"))
            #expect(fresh.calibrated && fresh.levels == nil && fresh.ordinaryContacts == 0)
            #expect(store.learner(for: "Pen B")?.calibrated == false)

            // learned --reset forgets it: the device learns again from nothing.
            #expect(store.reset(device: "Pen A") == ["Pen A"])
            #expect(store.learner(for: "Pen A") == nil)
            #expect(store.load(settingAside: true).learning.devices["Pen A"] == nil)
        }
    }
}
