import CX11
import Foundation
import GestureKit

/// The screen as XGetImage of the root window returns it: what a user sees without a
/// compositor, overlay windows included.
struct OverlayScreenshot {
    let width: Int
    let height: Int
    private var pixels: [OverlayTestColor]

    init(display: OpaquePointer, root: Window, width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = Array(repeating: OverlayTestColor.black, count: width * height)
        guard let image = XGetImage(display, root, 0, 0, UInt32(width), UInt32(height), ~0, ZPixmap) else { return }
        defer { _ = image.pointee.f.destroy_image(image) }
        let format = image.pointee
        for y in 0..<height {
            for x in 0..<width {
                let value = format.f.get_pixel(image, Int32(x), Int32(y))
                pixels[y * width + x] = OverlayTestColor(
                    red: Self.component(value, mask: format.red_mask),
                    green: Self.component(value, mask: format.green_mask),
                    blue: Self.component(value, mask: format.blue_mask))
            }
        }
    }

    private static func component(_ value: UInt, mask: UInt) -> UInt8 {
        guard mask != 0 else { return 0 }
        let shift = UInt(mask.trailingZeroBitCount)
        let maximum = mask >> shift
        return UInt8(((value & mask) >> shift) * 255 / maximum)
    }

    /// The colour at (x, y); black outside the screen.
    subscript(x: Int, y: Int) -> OverlayTestColor {
        guard x >= 0, y >= 0, x < width, y < height else { return .black }
        return pixels[y * width + x]
    }

    /// The colour at `degrees` clockwise from 12 o'clock, `radius` pixels from `center`.
    func color(around center: Point, radius: Double, degrees: Double) -> OverlayTestColor {
        let angle = degrees * .pi / 180
        let x = center.x + radius * sin(angle)
        let y = center.y - radius * cos(angle)
        return self[Int(x.rounded()), Int(y.rounded())]
    }

    /// Every pixel of `color` within `limit` pixels of `center`, as distances from it.
    func distances(of color: OverlayTestColor, around center: Point, within limit: Int) -> [Double] {
        var found: [Double] = []
        let cx = Int(center.x)
        let cy = Int(center.y)
        for y in (cy - limit)...(cy + limit) {
            for x in (cx - limit)...(cx + limit) where self[x, y] == color {
                found.append(Point(x: Double(x), y: Double(y)).distance(to: center))
            }
        }
        return found
    }

    /// Every colour in the square of half-size `limit` around `center`, with how often.
    func histogram(around center: Point, within limit: Int) -> [OverlayTestColor: Int] {
        var counts: [OverlayTestColor: Int] = [:]
        let cx = Int(center.x)
        let cy = Int(center.y)
        for y in (cy - limit)...(cy + limit) {
            for x in (cx - limit)...(cx + limit) {
                counts[self[x, y], default: 0] += 1
            }
        }
        return counts
    }

    /// Saves the screenshot as a PNG test artifact, under $GESTUREBRIDGE_ARTIFACTS or else
    /// .build/test-artifacts in the current directory; returns the file's path.
    @discardableResult
    func save(as name: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["GESTUREBRIDGE_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath + "/.build/test-artifacts"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for pixel in pixels {
            rgb += [pixel.red, pixel.green, pixel.blue]
        }
        let path = directory + "/" + name + ".png"
        try Data(OverlayPNG.encode(width: width, height: height, rgb: rgb)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
