/// Where a recorder window sits on the screen, in pixels.
public struct WindowFrame: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public func contains(_ point: PixelPoint) -> Bool {
        point.x >= Double(x) && point.x < Double(x + width) && point.y >= Double(y) && point.y < Double(y + height)
    }
}
