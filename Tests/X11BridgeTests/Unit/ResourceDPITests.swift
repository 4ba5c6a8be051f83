import Testing
@testable import X11Bridge

@Suite("Xft.dpi from the X resources")
struct ResourceDPITests {
    @Test("read from xrdb's text: blanks around it, the last definition winning")
    func found() {
        #expect(OverlayResources.resourceDPI(in: "Xft.dpi:\t96\n") == 96)
        #expect(OverlayResources.resourceDPI(in: "*customization:\t-color\nXft.antialias:\t1\n  Xft.dpi :  144.5  \nXft.hinting:\t1\n") == 144.5)
        #expect(OverlayResources.resourceDPI(in: "Xft.dpi:\t96\nXft.dpi:\t192\n") == 192)
    }

    @Test("nil when it is absent, empty or not a positive number",
          arguments: ["", "Xft.antialias:\t1\n", "Xft.dpi:\n", "Xft.dpi:\tlarge\n", "Xft.dpi:\t-96\n", "Xft.dpi:\tnan\n", "Xft.dpiX:\t96\n"])
    func absent(text: String) {
        #expect(OverlayResources.resourceDPI(in: text) == nil)
    }
}
