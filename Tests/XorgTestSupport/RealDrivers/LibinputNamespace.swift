import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What xf86-input-libinput needs to find emulated nodes, set up in a private mount namespace
/// the Xorg runs in (nothing of it is seen outside, and it all goes when the server ends):
///
/// - the nodes under /dev (libudev insists): a private tmpfs on /dev/shm, each node bound to
///   /dev/shm/input/eventN;
/// - a sysfs entry per device (input/inputN and its eventN child, with uevent, name, id,
///   capabilities, dev and subsystem), shown over /sys/devices/virtual (whose real entries are
///   bound back), with links in /sys/class/input and in a copy of /sys/dev/char;
/// - a udev database entry per node in a private /run (initialized, ID_INPUT and the tablet or
///   touchscreen tag), since no udev daemon runs here;
/// - for Xorg alone, `LD_PRELOAD` of the stat shim, which makes the nodes (regular FUSE files)
///   stat as character devices 13:(64+N), and SYSTEMD_DEVICE_VERIFY_SYSFS=0, so libudev takes a
///   sysfs entry that is not on sysfs.
struct LibinputNamespace {
    static let nodeDirectory = "/dev/shm/input"
    static let inputMajor = 13

    struct Node {
        let fileName: String
        let description: EvdevDeviceDescription
        /// N of inputN and eventN.
        let number: Int
        /// The emulated node's real st_dev and st_ino, for the shim.
        let device: UInt64
        let inode: UInt64

        var minor: Int { 64 + number }
        var eventName: String { "event\(number)" }
        var inputName: String { "input\(number)" }
        var devicePath: String { LibinputNamespace.nodeDirectory + "/" + eventName }
    }

    let runDirectory: String
    let mountPoint: String
    let nodes: [Node]

    init(runDirectory: String, mountPoint: String, devices: [(fileName: String, description: EvdevDeviceDescription)]) throws {
        self.runDirectory = runDirectory
        self.mountPoint = mountPoint
        var nodes: [Node] = []
        for (index, device) in devices.enumerated() {
            var status = stat()
            guard stat(mountPoint + "/" + device.fileName, &status) == 0 else {
                throw RealDriverError.cannotPrepare(reason: "cannot stat the emulated node \(device.fileName)")
            }
            nodes.append(Node(fileName: device.fileName, description: device.description, number: 100 + index,
                              device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
        }
        self.nodes = nodes
    }

    /// The shim's map: "DEV:INO:MAJOR:MINOR,...".
    var shimMap: String {
        nodes.map { "\($0.device):\($0.inode):\(Self.inputMajor):\($0.minor)" }.joined(separator: ",")
    }

    private var sysRoot: String { runDirectory + "/sys" }

    /// Writes the sysfs entries, the udev database and the script that mounts them in the namespace.
    func prepare() throws {
        let files = FileManager.default
        for directory in ["devices/virtual/input", "class/input", "dev/char"] {
            try files.createDirectory(atPath: sysRoot + "/" + directory, withIntermediateDirectories: true)
        }
        try files.createDirectory(atPath: runDirectory + "/udev-data", withIntermediateDirectories: true)
        for node in nodes {
            try writeSysfs(node)
            try writeUdevData(node)
        }
    }

    private func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    private func writeSysfs(_ node: Node) throws {
        let description = node.description
        let input = sysRoot + "/devices/virtual/input/" + node.inputName
        let event = input + "/" + node.eventName
        let files = FileManager.default
        try files.createDirectory(atPath: input + "/id", withIntermediateDirectories: true)
        try files.createDirectory(atPath: input + "/capabilities", withIntermediateDirectories: true)
        try files.createDirectory(atPath: event, withIntermediateDirectories: true)

        let hex = { (value: UInt16) in String(format: "%04x", value) }
        let keys = description.keys.map(Int.init)
        let absolute = description.axes.keys.map(Int.init)
        let miscellaneous = description.miscellaneous.map(Int.init)
        let capabilities: [(String, String)] = [
            ("ev", EvdevDeviceDescription.bitmap(description.eventTypes)),
            ("key", EvdevDeviceDescription.bitmap(keys)),
            ("abs", EvdevDeviceDescription.bitmap(absolute)),
            ("msc", EvdevDeviceDescription.bitmap(miscellaneous)),
            ("rel", "0"), ("sw", "0"), ("led", "0"), ("snd", "0"), ("ff", "0"),
        ]
        for (name, bits) in capabilities { try write(bits + "\n", to: input + "/capabilities/" + name) }
        let product = "\(String(description.bustype, radix: 16))/\(String(description.vendor, radix: 16))/"
            + "\(String(description.product, radix: 16))/\(String(description.version, radix: 16))"
        let properties = EvdevDeviceDescription.bitmap(description.properties.map(Int.init))
        try write("""
            PRODUCT=\(product)
            NAME="\(description.name)"
            PHYS="\(description.phys)"
            PROP=\(properties)
            EV=\(EvdevDeviceDescription.bitmap(description.eventTypes))
            KEY=\(EvdevDeviceDescription.bitmap(keys))
            ABS=\(EvdevDeviceDescription.bitmap(absolute))
            MSC=\(EvdevDeviceDescription.bitmap(miscellaneous))

            """, to: input + "/uevent")
        try write(description.name + "\n", to: input + "/name")
        try write(description.phys + "\n", to: input + "/phys")
        try write("\n", to: input + "/uniq")
        try write(properties + "\n", to: input + "/properties")
        for (name, value) in [("bustype", description.bustype), ("vendor", description.vendor),
                              ("product", description.product), ("version", description.version)] {
            try write(hex(value) + "\n", to: input + "/id/" + name)
        }
        try files.createSymbolicLink(atPath: input + "/subsystem", withDestinationPath: "../../../../class/input")
        try write("""
            MAJOR=\(Self.inputMajor)
            MINOR=\(node.minor)
            DEVNAME=\(String(node.devicePath.dropFirst("/dev/".count)))

            """, to: event + "/uevent")
        try write("\(Self.inputMajor):\(node.minor)\n", to: event + "/dev")
        try files.createSymbolicLink(atPath: event + "/subsystem", withDestinationPath: "../../../../../class/input")
        try files.createSymbolicLink(atPath: event + "/device", withDestinationPath: "..")

        try files.createSymbolicLink(atPath: sysRoot + "/class/input/" + node.inputName,
                                     withDestinationPath: "../../devices/virtual/input/" + node.inputName)
        try files.createSymbolicLink(atPath: sysRoot + "/class/input/" + node.eventName,
                                     withDestinationPath: "../../devices/virtual/input/\(node.inputName)/\(node.eventName)")
        try files.createSymbolicLink(atPath: sysRoot + "/dev/char/\(Self.inputMajor):\(node.minor)",
                                     withDestinationPath: "../../devices/virtual/input/\(node.inputName)/\(node.eventName)")
    }

    private func writeUdevData(_ node: Node) throws {
        let tag = node.description.role == .tablet ? "ID_INPUT_TABLET" : "ID_INPUT_TOUCHSCREEN"
        let properties = """
            I:1000000
            E:ID_INPUT=1
            E:\(tag)=1
            E:ID_BUS=usb
            E:ID_VENDOR_ID=\(String(format: "%04x", node.description.vendor))
            E:ID_MODEL_ID=\(String(format: "%04x", node.description.product))

            """
        try write(properties, to: runDirectory + "/udev-data/c\(Self.inputMajor):\(node.minor)")
        try write(properties, to: runDirectory + "/udev-data/+input:\(node.inputName)")
    }

    /// The script `unshare -m --propagation private` runs: it mounts everything above in the new
    /// namespace and then becomes the X server (`exec`), with the shim in its environment only.
    /// Arguments: the X server's executable and its arguments.
    func script(shimLibrary: String) -> String {
        var binds = ""
        for node in nodes {
            binds += """
                : > \(node.devicePath)
                mount --bind "$run/evdev/\(node.fileName)" \(node.devicePath)

                """
        }
        return """
            #!/bin/sh
            # The libinput test server's private mount namespace (LibinputNamespace.swift).
            set -eu
            run='\(runDirectory)'
            mount -t tmpfs -o mode=0755 gesturebridge-shm /dev/shm
            mkdir -p \(Self.nodeDirectory)
            \(binds)
            # /sys/devices/virtual: the emulated devices, and every real entry bound back.
            mkdir -p "$run/sys-virtual-real"
            mount --bind /sys/devices/virtual "$run/sys-virtual-real"
            for entry in "$run/sys-virtual-real"/*; do
                name=${entry##*/}
                [ "$name" = input ] && continue
                mkdir -p "$run/sys/devices/virtual/$name"
            done
            mount --bind "$run/sys/devices/virtual" /sys/devices/virtual
            for entry in "$run/sys-virtual-real"/*; do
                name=${entry##*/}
                [ "$name" = input ] && continue
                mount --bind "$entry" "/sys/devices/virtual/$name"
            done
            cp -a /sys/dev/char/. "$run/sys/dev/char/" 2>/dev/null || true
            mount --bind "$run/sys/dev/char" /sys/dev/char
            mount --bind "$run/sys/class/input" /sys/class/input
            mount -t tmpfs -o mode=0755 gesturebridge-run /run
            mkdir -p /run/udev/data
            cp "$run"/udev-data/* /run/udev/data/
            exec env LD_PRELOAD='\(shimLibrary)' GESTUREBRIDGE_STAT_SHIM='\(shimMap)' SYSTEMD_DEVICE_VERIFY_SYSFS=0 "$@"

            """
    }
}
