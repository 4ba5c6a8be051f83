import Foundation
import Glibc

/// Reads `read` every `interval` seconds until what it gives satisfies `done`, or `timeout`
/// passes; returns the last reading either way, for the test to check. For what no event says
/// (pixels on screen, a sound server's volume).
func poll<Reading>(timeout: Double, every interval: Double, _ read: () throws -> Reading,
                   until done: (Reading) -> Bool) rethrows -> Reading {
    let deadline = Date().addingTimeInterval(timeout)
    var reading = try read()
    while !done(reading), Date() < deadline {
        usleep(UInt32(interval * 1_000_000))
        reading = try read()
    }
    return reading
}
