import Glibc

/// One device's learned state as a small text file: a line a fact, so a person can read it and
/// a damaged one is recognised, never half-believed.
///
/// ```
/// # gesture-bridge: the deep press learned for one device (gesture-bridge learned --reset)
/// version 2
/// device Wacom Intuos Pro M Pen stylus [056a:0357]
/// levels 0.368 0.263 0.21
/// moving false
/// calibrated false
/// contacts 40 10
/// ordinary 0.12 0.08 ...
/// deliberate 0.44 ...
/// ```
///
/// and, only when some of the ordinary contacts were held still (`HandLearner.heldStill`),
/// their positions in the `ordinary` list, from 0:
///
/// ```
/// still 7 19
/// ```
///
/// A file without that line (every file written before it was) has none: it reads as before.
///
/// And, only when quick presses wait to be judged (`HandLearner.unjudgedQuick`), their peaks
/// and how many ordinary contacts came before each, as version 3 (a version 2 reader leaves it
/// alone rather than take the lines for damage):
///
/// ```
/// quick 0.78 0.81
/// quick-after 0 0
/// ```
///
/// Version 2 files are written, or 3 with quick presses; version 1 files (written before the
/// `still` line, and before a state under the name alone could only be a device without ids)
/// are read as well, their newest peaks as many as the rule keeps, and written anew as version
/// 2. An older gesture-bridge leaves a file of a version it does not know alone (`otherVersion`).
public enum LearnedStateFile {
    public static let version = 2
    /// The version of a file that keeps quick presses to be judged.
    public static let quickVersion = 3
    /// The versions this gesture-bridge reads.
    public static let readable: ClosedRange<Int> = 1...3

    /// Whether `text` holds a state kept under a device's name alone by a version that put no
    /// ids in the key (version 1): the state of a device that may have ids now, which it
    /// learns on from (`PressLearning.keptBeforeIDs`). A state under the name alone written
    /// since is a device's without ids, and never another's.
    public static func keptBeforeIDs(_ text: String) -> Bool {
        version(of: text) == 1 && device(of: text).map { LearningKey.product(of: $0) == nil } == true
    }

    public static func encode(device: String, learner: HandLearner) -> String {
        func numbers(_ values: [Double]) -> String { values.map { JSONLine.number(HandLearner.rounded($0)) }.joined(separator: " ") }
        let quick = learner.unjudgedQuick
        var lines = ["# gesture-bridge: the deep press learned for one device (gesture-bridge learned --reset)",
                     "version \(quick.isEmpty ? version : quickVersion)",
                     "device \(device)"]
        if let levels = learner.levels {
            lines.append("levels \(numbers([levels.threshold, levels.release, levels.ordinary]))")
        } else {
            lines.append("levels none")
        }
        lines.append("moving \(learner.moving)")
        lines.append("calibrated \(learner.calibrated)")
        lines.append("contacts \(learner.ordinaryContacts) \(learner.deliberatePresses)")
        lines.append("ordinary \(numbers(learner.ordinaryPeaks))")
        lines.append("deliberate \(numbers(learner.deliberatePeaks))")
        let heldStill = learner.heldStill
        if !heldStill.isEmpty { lines.append("still \(heldStill.map(String.init).joined(separator: " "))") }
        if !quick.isEmpty {
            lines.append("quick \(numbers(quick))")
            lines.append("quick-after \(learner.unjudgedQuickAfter.map(String.init).joined(separator: " "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The device and its learner; nil when anything is missing, unknown or out of range, or
    /// the file does not end as `encode` ends it, with a newline: one cut short inside its last
    /// line (`deliberate 0.4` of `deliberate 0.44`, or of an empty list) may still read as
    /// numbers, but not as the ones written.
    public static func decode(_ text: String) -> (device: String, learner: HandLearner)? {
        guard text.hasSuffix("\n") else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first.map(String.init), fields[key] == nil else { return nil }
            fields[key] = parts.count > 1 ? String(parts[1]) : ""
        }
        // Written only when there are some: present, it names at least one.
        var heldStill: [Int] = []
        if let text = fields["still"] {
            guard let positions = positions(text), !positions.isEmpty else { return nil }
            heldStill = positions
        }
        // Written only in version 3, both or neither, one number each.
        var quick: [(peak: Double, after: Int)] = []
        if fields["version"] == "\(quickVersion)" {
            guard let peaks = fields["quick"].flatMap(numbers), let after = fields["quick-after"].map(integers),
                  !peaks.isEmpty, peaks.count == after.count else { return nil }
            quick = Array(zip(peaks, after))
        }
        let expected = 8 + (fields["still"] == nil ? 0 : 1) + (quick.isEmpty ? 0 : 2)
        guard fields.count == expected, fields["version"].flatMap({ Int($0) }).map(readable.contains) == true, let device = fields["device"], !device.isEmpty,
              let moving = fields["moving"].flatMap(Bool.init), let calibrated = fields["calibrated"].flatMap(Bool.init),
              let counts = fields["contacts"].map(integers), counts.count == 2,
              var ordinary = fields["ordinary"].flatMap(numbers), var deliberate = fields["deliberate"].flatMap(numbers),
              let levelsText = fields["levels"] else { return nil }
        var levels: PressLevels?
        if levelsText != "none" {
            guard let values = numbers(levelsText), values.count == 3 else { return nil }
            levels = PressLevels(threshold: values[0], release: values[1], ordinary: values[2])
        }
        // Found in review of an upgrade: bridges of a short while before version 2 remembered up
        // to 300 ordinary peaks, and wrote them all; their newest are what the rule keeps now.
        if fields["version"] == "1" {
            ordinary = Array(ordinary.suffix(LearningRule.ordinaryWindow))
            deliberate = Array(deliberate.suffix(LearningRule.deliberateWindow))
        }
        guard let learner = HandLearner(ordinaryPeaks: ordinary, heldStill: heldStill, deliberatePeaks: deliberate,
                                        ordinaryContacts: counts[0],
                                        deliberatePresses: counts[1], levels: levels, moving: moving, calibrated: calibrated,
                                        quick: quick)
        else { return nil }
        return (device, learner)
    }

    /// The version a state file says it is written in; nil when it says none.
    public static func version(of text: String) -> Int? {
        field("version", of: text).flatMap { Int($0) }
    }

    /// The device a state file names on its `device` line, whatever its version; nil for none.
    public static func device(of text: String) -> String? {
        field("device", of: text).flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func field(_ name: String, of text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return String(line.dropFirst(name.count + 1))
        }
        return nil
    }

    private static func numbers(_ text: String) -> [Double]? {
        var values: [Double] = []
        for word in text.split(separator: " ") {
            guard let value = Double(word), value.isFinite else { return nil }
            values.append(value)
        }
        return values
    }

    /// Positions in a list, every word one; nil when any is not.
    private static func positions(_ text: String) -> [Int]? {
        var values: [Int] = []
        for word in text.split(separator: " ") {
            guard let value = Int(word), value >= 0 else { return nil }
            values.append(value)
        }
        return values
    }

    private static func integers(_ text: String) -> [Int] {
        text.split(separator: " ").compactMap { Int($0) }.filter { $0 >= 0 }
    }
}

/// Where `run` keeps what it learned: `$XDG_STATE_HOME/gesture-bridge/` (else
/// `~/.local/state/gesture-bridge/`), one `.learned` file per device, named after its
/// `LearningKey` (its name, and its vendor and product ids where X says them), readable by the
/// user alone, each written whole (a temporary file renamed over the old one).
public struct LearnedStateStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The user's store, following the XDG base directory rules; nil without a home.
    public static func user(environment: [String: String] = ProcessEnvironment.current) -> LearnedStateStore? {
        if let base = environment["XDG_STATE_HOME"], base.hasPrefix("/") {
            return LearnedStateStore(directory: base + "/gesture-bridge")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return LearnedStateStore(directory: home + "/.local/state/gesture-bridge")
    }

    /// The file each running bridge holds a shared lock on while it keeps its learning here: a
    /// command that would change the state under it (`learned --reset`) asks it, whatever
    /// display the bridge runs on and whether that display can be reached.
    static let inUseName = "in-use.lock"

    /// Marks the store in use by this process until it ends (a shared `flock` on
    /// `inUseName`, its descriptor closed on exec, so no command it launches keeps it); false
    /// when the folder cannot be made or the lock taken (nothing then tells a reset it is in use).
    public func holdInUse() -> Bool {
        guard (try? FileContents.makeDirectories(directory)) != nil else { return false }
        let descriptor = open(directory + "/" + Self.inUseName, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else {
            close(descriptor)
            return false
        }
        // Held until the process ends: the kernel lets go of the lock with the descriptor.
        return true
    }

    /// Whether a running bridge holds the store (`holdInUse`).
    public enum Use: Sendable, Equatable {
        case free
        case inUse
        /// The lock could not be asked (a network home folder without a lock manager: ENOLCK),
        /// so a bridge holding it could not have taken it either: nothing is known.
        case unknown(reason: String)
    }

    /// Whether a running bridge holds the store (`holdInUse`).
    public func use() -> Use {
        let descriptor = open(directory + "/" + Self.inUseName, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return .free }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return .free
        }
        let code = errno
        return code == EWOULDBLOCK ? .inUse : .unknown(reason: String(cString: strerror(code)))
    }

    /// What was loaded; the files found damaged (renamed to `….damaged` where `load` sets them
    /// aside); the files that could not be read, and why; and the files another version of
    /// gesture-bridge wrote, which no version of ours reads, sets aside or writes over.
    public struct Loaded: Sendable {
        public var learning = PressLearning()
        public var damaged: [String] = []
        /// Files there that the system would not let us read (another user's, as one left by
        /// `sudo gesture-bridge calibrate --write`; a read error): what they hold is unknown,
        /// so they are neither set aside nor written over (`save` refuses to).
        public var unreadableFiles: [LearnedStateError] = []
        public var otherVersion: [String] = []
        /// The device each of `otherVersion` names on its `device` line, where it names one.
        public var otherVersionDevices: [String: String] = [:]
        /// The folder exists and cannot be read (its mode, a file in its place): nothing in it
        /// was loaded, and nothing learned will be kept in it.
        public var unreadable: LearnedStateError?

        public init() {}
    }

    /// Every device's state. `settingAside`: a damaged file is renamed `….damaged`, for the
    /// bridge, which learns that device afresh and writes its file anew; a command that only
    /// reads leaves the file where it is.
    public func load(settingAside: Bool) -> Loaded {
        var loaded = Loaded()
        let names: [String]
        do {
            names = try fileNames()
        } catch {
            loaded.unreadable = LearnedStateError(path: directory, reason: error.reason)
            return loaded
        }
        for name in names where name.hasSuffix(Self.suffix) {
            let path = directory + "/" + name
            let text: String
            do {
                text = String(decoding: try FileContents.read(path), as: UTF8.self)
            } catch {
                // Gone since the folder was listed: nothing to load.
                if error.code != ENOENT { loaded.unreadableFiles.append(LearnedStateError(path: path, reason: error.reason)) }
                continue
            }
            if let version = LearnedStateFile.version(of: text), !LearnedStateFile.readable.contains(version) {
                loaded.otherVersion.append(path)
                loaded.otherVersionDevices[path] = LearnedStateFile.device(of: text)
                continue
            }
            guard let (device, learner) = LearnedStateFile.decode(text), fileName(for: device) == name else {
                if settingAside { rename(path, path + ".damaged") }
                loaded.damaged.append(path)
                continue
            }
            loaded.learning.devices[device] = learner
            if LearnedStateFile.keptBeforeIDs(text) { loaded.learning.keptBeforeIDs.insert(device) }
        }
        return loaded
    }

    /// One device's kept learner, read from its own file alone (no other file is touched); nil
    /// when nothing is kept under this key or its file is not one.
    public func learner(for key: String) -> HandLearner? {
        guard let bytes = try? FileContents.read(directory + "/" + fileName(for: key)),
              let (kept, learner) = LearnedStateFile.decode(String(decoding: bytes, as: UTF8.self)),
              kept == key else { return nil }
        return learner
    }

    /// The learner kept for a device's key, else, for a key with vendor and product ids, the
    /// one kept under its name alone before the ids were part of the key (a version 1 file), as
    /// `PressLearning.learner(name:product:)` finds it; never the state of another device of
    /// that name without ids.
    public func keptLearner(for key: String) -> HandLearner? {
        learner(for: key) ?? (LearningKey.product(of: key) == nil ? nil : learnerKeptBeforeIDs(name: LearningKey.name(of: key)))
    }

    /// The learner under `name` alone when a version before ids wrote it (`LearnedStateFile.keptBeforeIDs`).
    private func learnerKeptBeforeIDs(name: String) -> HandLearner? {
        guard let bytes = try? FileContents.read(directory + "/" + fileName(for: name)),
              LearnedStateFile.keptBeforeIDs(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return learner(for: name)
    }

    /// `calibrate --write` set this device's levels: its state is marked calibrated (what it
    /// learned so far kept, also under its name alone), so learning neither moves nor applies
    /// to it until `learned --reset` forgets the file. A damaged or missing file starts from
    /// nothing; one that cannot be read is left as it is (`save` throws).
    @discardableResult
    public func markCalibrated(device key: String) throws(LearnedStateError) -> HandLearner {
        var learner = keptLearner(for: key) ?? HandLearner()
        learner.calibrated = true
        try save(device: key, learner: learner)
        return learner
    }

    /// Loads one state file (`replay --state`); nil when it is not one.
    public static func loadFile(_ path: String) throws(LearnedStateError) -> (device: String, learner: HandLearner)? {
        do {
            return LearnedStateFile.decode(String(decoding: try FileContents.read(path), as: UTF8.self))
        } catch {
            throw LearnedStateError(path: path, reason: error.reason)
        }
    }

    /// Writes one device's state under its key: to a temporary file of mode 0600, then renamed
    /// over the old one, so a crash leaves the old state or the new, never half of one.
    ///
    /// The learner carries what was kept under the device's name alone before ids were part of
    /// the key (the bridge and `calibrate` start from it, `keptLearner`), so once it is written
    /// under a key with vendor and product ids, that older file goes: moved over to the key,
    /// nothing lost. A state under the name alone written since is another device's, and stays.
    public func save(device key: String, learner: HandLearner) throws(LearnedStateError) {
        do {
            try write(device: key, learner: learner)
        } catch {
            throw LearnedStateError(path: directory + "/" + fileName(for: key), reason: error.reason)
        }
        let name = LearningKey.name(of: key)
        if name != key, learnerKeptBeforeIDs(name: name) != nil {
            unlink(directory + "/" + fileName(for: name))
        }
    }

    private func write(device: String, learner: HandLearner) throws(LearnedStateWriteError) {
        try makeDirectory()
        let path = directory + "/" + fileName(for: device)
        // What is there must be known before it is replaced: a file we cannot read may hold a
        // state, or a calibrated mark, that no one asked to lose.
        let kept: [UInt8]?
        do {
            kept = try FileContents.read(path)
        } catch {
            guard error.code == ENOENT else { throw .unreadable(error, path: path) }
            kept = nil
        }
        if let kept, let version = LearnedStateFile.version(of: String(decoding: kept, as: UTF8.self)),
           !LearnedStateFile.readable.contains(version) {
            throw .otherVersion(version)
        }
        do {
            try FileContents.replace(path, with: Array(LearnedStateFile.encode(device: device, learner: learner).utf8))
        } catch {
            throw .system(error)
        }
    }

    /// Forgets one device's state (by its key, or by its name: every key made from that name),
    /// or every device's; the keys forgotten.
    /// A file another version wrote is forgotten too, by the key its `device` line names: asked
    /// to forget, the person means that device's state whatever wrote it.
    public func reset(device: String? = nil) -> [String] {
        let loaded = load(settingAside: false)
        let files = loaded.learning.devices.keys.map { (key: $0, path: directory + "/" + fileName(for: $0)) }
            + loaded.otherVersionDevices.map { (key: $0.value, path: $0.key) }
        var removed: [String] = []
        for file in files.sorted(by: { $0.key < $1.key })
        where device == nil || device == file.key || device == LearningKey.name(of: file.key) {
            if unlink(file.path) == 0 { removed.append(file.key) }
        }
        return removed
    }

    /// Removes the files no device's state could be read from: those found damaged, and those
    /// the bridge set aside as `….damaged`; their paths. For forgetting everything: nothing
    /// names the device they were for.
    public func removeDamaged() -> [String] {
        let loaded = load(settingAside: false)
        let setAside = ((try? fileNames()) ?? []).filter { $0.hasSuffix(Self.suffix + ".damaged") }.map { directory + "/" + $0 }
        return (loaded.damaged + loaded.unreadableFiles.map(\.path) + setAside).sorted().filter { unlink($0) == 0 }
    }

    static let suffix = ".learned"

    /// A file name from the device's key: letters and digits kept, anything else a dash, and a
    /// short hash of the whole key so two keys that read alike do not share a file
    /// ("Wacom Pen [056a:5000]": `Wacom-Pen--056a-5000--HASH.learned`).
    public func fileName(for key: String) -> String {
        FileContents.name(for: key.unicodeScalars.prefix(60), hashing: key) + Self.suffix
    }

    private func makeDirectory() throws(LearnedStateWriteError) {
        do {
            try FileContents.makeDirectories(directory)
        } catch {
            throw .system(error)
        }
    }

    /// The folder's entries; none when it does not exist yet (nothing learned so far).
    private func fileNames() throws(FileReadError) -> [String] {
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw FileReadError(code: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

/// A learned-state file that cannot be read or written, in the system's words.
public struct LearnedStateError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }

    /// What to do about a state file at `path` that cannot be read.
    public static func unreadableAdvice(_ path: String) -> String {
        "make it yours again (`sudo chown $USER \"\(path)\"`: one left by a `sudo` command) or remove it"
    }
}

/// Why one device's state was not written.
enum LearnedStateWriteError: Error {
    /// A call failed, in the system's words.
    case system(FileReadError)
    /// Its file is another version's (`version N`), left as it is.
    case otherVersion(Int)
    /// Its file cannot be read (another user's, a read error), so it is left as it is.
    case unreadable(FileReadError, path: String)

    var reason: String {
        switch self {
        case .system(let error): return error.reason
        case .otherVersion(let version):
            return "written by another version of gesture-bridge (version \(version)), so it is left as it is"
        case .unreadable(let error, let path):
            return "cannot be read (\(error.reason)), so it is left as it is; " + LearnedStateError.unreadableAdvice(path)
        }
    }
}
