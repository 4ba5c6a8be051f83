/// How a TrueColor visual packs a colour into a pixel value.
struct PixelFormat: Sendable, Hashable {
    var redMask: UInt
    var greenMask: UInt
    var blueMask: UInt
    /// Zero for an opaque visual.
    var alphaMask: UInt = 0

    /// An ARGB visual names no alpha mask: alpha is whatever bits of the depth the colours
    /// leave over.
    static func withAlpha(redMask: UInt, greenMask: UInt, blueMask: UInt, depth: Int) -> PixelFormat {
        let depthBits: UInt = depth >= UInt.bitWidth ? UInt.max : (1 << UInt(depth)) - 1
        return PixelFormat(redMask: redMask, greenMask: greenMask, blueMask: blueMask,
                           alphaMask: depthBits & ~(redMask | greenMask | blueMask))
    }

    var hasAlpha: Bool { alphaMask != 0 }

    /// The pixel for `color`. With alpha, the components are premultiplied, which is what
    /// compositors expect of ARGB windows; without, alpha is left to the caller (dithering).
    func pixel(for color: OverlayColor) -> UInt {
        let alpha = hasAlpha ? min(max(color.alpha, 0), 1) : 1
        return Self.scaled(color.red * alpha, into: redMask)
            | Self.scaled(color.green * alpha, into: greenMask)
            | Self.scaled(color.blue * alpha, into: blueMask)
            | Self.scaled(alpha, into: alphaMask)
    }

    private static func scaled(_ component: Double, into mask: UInt) -> UInt {
        guard mask != 0 else { return 0 }
        let shift = UInt(mask.trailingZeroBitCount)
        let maximum = mask >> shift
        let clamped = component.isFinite ? min(max(component, 0), 1) : 0
        return (UInt((clamped * Double(maximum)).rounded()) << shift) & mask
    }
}
