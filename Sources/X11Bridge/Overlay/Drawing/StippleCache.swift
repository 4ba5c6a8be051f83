import CX11

/// The server-side bitmaps of every dither level, made once and shared by all windows.
final class StippleCache {
    private let display: OpaquePointer
    private var bitmaps: [Int: Pixmap] = [:]

    init(display: OpaquePointer) {
        self.display = display
    }

    /// The stipple for a level strictly between 0 and `DitherPattern.levels`.
    func bitmap(level: Int, root: Window) -> Pixmap {
        if let known = bitmaps[level] { return known }
        let rows = DitherPattern.rows(level: level).map { CChar(bitPattern: $0) }
        let size = UInt32(DitherPattern.size)
        let bitmap = rows.withUnsafeBufferPointer { buffer in
            XCreateBitmapFromData(display, root, buffer.baseAddress, size, size)
        }
        bitmaps[level] = bitmap
        return bitmap
    }

    func release() {
        for bitmap in bitmaps.values { XFreePixmap(display, bitmap) }
        bitmaps.removeAll()
    }
}
