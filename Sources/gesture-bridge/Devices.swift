import ArgumentParser
import GestureKit
import X11Bridge

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the pens, touchscreens and mice the bridge can listen to.",
        discussion: """
            For each device: its XInput id, name, vendor and product ids (where the driver gives \
            them), kind, the driver whose conventions it follows \
            (libinput, wacom, evdev) and the type that driver gives it, its pressure range \
            (device units; "pressing now" while a pen's pressure reads above its minimum: X \
            keeps only the last value, which a pen's lift sets back and a touch's does not), how \
            many touches it tracks, and which bindings of \
            the config listen to it; then, for each device with pressure, the deep-press levels \
            learned for it and from how many contacts (`gesture-bridge learned`). Use the id or name with `record --device`, and the \
            pressure range to read `analyze` output. A pen tablet whose pen has not come near \
            it yet (libinput adds the pen's device then) is said below the list.

            Examples:
              gesture-bridge devices
              gesture-bridge devices --config my-config.yaml --json

            A config that does not load is said, and the devices listed all the same (exit \
            status 1), with the bindings a bridge started now runs: the config that last loaded \
            from that file, else for your own config the built-in default, else "?" \
            (`listened` and `bindings` null with --json).
            """
    )

    @OptionGroup var config: ConfigOption

    @Flag(help: "One JSON object per device and line.")
    var json = false

    func run() throws {
        let logger = CommandLogging.logger(verbose: false)
        // The list is what a person looks for while mending a config (a device's name
        // mistyped): a config that does not load is said, and the devices are listed all the
        // same, with the bindings of the config a bridge started now would run, if one is kept.
        let bindings = Self.bindings(config)
        let connection = try CommandLogging.openDisplay(requirements: .init(xtest: false), logger: logger)
        defer { connection.close() }
        let catalog = DeviceCatalog.query(connection)
        let devices = catalog.devices.filter { $0.kind != nil }
        let learning = Learned.userState()
        if json {
            for device in devices {
                print(Self.json(device, bindings: bindings.set, learning: learning,
                                nameAloneInUse: LearningKey.nameAloneInUse(by: device.name, among: devices.map { ($0.name, $0.product) })))
            }
        } else if devices.isEmpty, catalog.tabletsAwaitingPen.isEmpty {
            print("No pen, touchscreen or mouse found on \(connection.displayName).")
        } else if !devices.isEmpty {
            printTable(devices, bindings: bindings.set, learning: learning)
        }
        // Found in review: under libinput a tablet whose pen has not come near lists no pen
        // at all, and nothing said why. (Not a device line: there is no device to listen to yet.)
        for tablet in catalog.tabletsAwaitingPen {
            let advice = DeviceCatalog.awaitingPenAdvice(tablet)
            if json { printError("gesture-bridge: \(advice)") } else { print((devices.isEmpty ? "" : "\n") + advice + ".") }
        }
        if bindings.failed { throw CommandFailure.reported() }
    }

    /// The bindings to show: the config's; for a config file that does not load, its errors
    /// said and the config that last loaded from it (`KeptConfig`), which a bridge started now
    /// runs, or none (`set` nil: which bindings listen is not known). `failed`: it did not load.
    static func bindings(_ option: ConfigOption) -> (set: BindingSet?, failed: Bool) {
        let source = option.source().anchored()
        let start = StartingConfig(source, kept: KeptConfig.user(), keyNames: XKeysymNames())
        guard let error = start.error else { return (start.bindings, false) }
        printError("\(error)")
        if let standIn = start.standIn(for: source) {
            printError("gesture-bridge: BINDINGS shows \(standIn), which a bridge started now runs until the file is mended")
        } else {
            printError("gesture-bridge: BINDINGS cannot say which bindings listen until the config loads")
        }
        return (start.bindings, true)
    }

    private func printTable(_ devices: [X11Device], bindings: BindingSet?, learning: PressLearning) {
        let rows = devices.map { device -> [String] in
            var pressure = device.pressureAxis?.pressureRange.map { "\($0.min.formatted)..\($0.max.formatted)" } ?? "-"
            if device.pressureHasMoved == true { pressure += " pressing now" }
            let driver = device.driver.rawValue + (device.type.map { " \($0.name)" } ?? "")
            let touches = device.touch.map { "\($0.maxTouches)" } ?? "-"
            let listeners = bindings.map { DeviceDescription.listeners(of: device, in: $0) }
            var kind = device.kind?.rawValue ?? "-"
            if !device.isEnabled { kind += " (disabled)" }
            return [String(device.id), device.name, device.product?.description ?? "-", kind, driver, pressure, touches,
                    listeners.map { $0.isEmpty ? "-" : $0.joined(separator: ", ") } ?? "?"]
        }
        let header = ["ID", "NAME", "VENDOR:PRODUCT", "KIND", "DRIVER", "PRESSURE", "TOUCHES", "BINDINGS"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.enumerated().map { column, text in
                column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count)
            }
            print(cells.joined(separator: "  "))
        }
        let learners = devices.filter(Self.learns)
        if !learners.isEmpty {
            print("\nLEARNED (gesture-bridge learned)")
            for device in learners {
                print("\(device.id) \(device.name): " + Learned.summary(learning.learner(name: device.name, product: device.product,
                                            nameAloneInUse: LearningKey.nameAloneInUse(by: device.name, among: devices.map { ($0.name, $0.product) }))))
            }
        }
    }

    /// Whether a deep press can learn this device's levels: it reports pressure.
    static func learns(_ device: X11Device) -> Bool {
        device.pressureAxis?.pressureRange != nil
    }

    /// One device as `devices --json` gives it; with `learning`, its `learned` object too
    /// (`run --json`'s device objects have none).
    static func json(_ device: X11Device, bindings: BindingSet?, learning: PressLearning? = nil, nameAloneInUse: Bool = false) -> String {
        JSONLineEncoder.line(DeviceLine(device, bindings: bindings, learning: learning, nameAloneInUse: nameAloneInUse))
    }
}
