/// Set by Xlib's I/O error exit handler when the server goes away. Without that handler Xlib
/// ends the whole test process; with it the recorder stops touching the dead connection.
final class ConnectionLossFlag {
    var isLost = false
}
