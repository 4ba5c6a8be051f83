import CX11

/// The visual, depth and colormap an overlay window is created with.
struct OverlayVisual {
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    let colormap: Colormap
    let format: PixelFormat

    /// Whether the window's pixels carry alpha: only when a compositor blends them.
    var isTranslucent: Bool { format.hasAlpha }
}
