import CX11

/// Devices appearing and vanishing one after another, as a dock plugged in or a USB hub
/// re-enumerating makes them: a master pair (its pointer and keyboard, each with an XTEST
/// device) added and removed, again and again, on a connection of its own.
public enum MasterChurn {
    /// Adds and removes a master pair `rounds` times on `displayName`, as fast as the server
    /// takes it; returns how many pairs came and went (each is checked to have appeared).
    public static func run(on displayName: String, rounds: Int) -> Int {
        guard let display = XOpenDisplay(displayName) else { return 0 }
        defer { XCloseDisplay(display) }
        var churned = 0
        for round in 0..<rounds {
            let name = "churn \(round)"
            name.withCString { cName in
                var add = XIAddMasterInfo(type: XIAddMaster, name: UnsafeMutablePointer(mutating: cName), send_core: 1, enable: 1)
                withUnsafeMutablePointer(to: &add) {
                    _ = XIChangeHierarchy(display, UnsafeMutableRawPointer($0).assumingMemoryBound(to: XIAnyHierarchyChangeInfo.self), 1)
                }
            }
            guard let master = masterPointer(named: name + " pointer", on: display) else { continue }
            var remove = XIRemoveMasterInfo(type: XIRemoveMaster, deviceid: master, return_mode: XIFloating,
                                            return_pointer: 0, return_keyboard: 0)
            withUnsafeMutablePointer(to: &remove) {
                _ = XIChangeHierarchy(display, UnsafeMutableRawPointer($0).assumingMemoryBound(to: XIAnyHierarchyChangeInfo.self), 1)
            }
            XSync(display, 0)
            churned += 1
        }
        return churned
    }

    private static func masterPointer(named name: String, on display: OpaquePointer) -> Int32? {
        var count: Int32 = 0
        guard let infos = XIQueryDevice(display, XIAllMasterDevices, &count) else { return nil }
        defer { XIFreeDeviceInfo(infos) }
        return (0..<Int(max(0, count))).first { infos[$0].name.map { String(cString: $0) } == name }.map { infos[$0].deviceid }
    }
}
