import ArgumentParser
import GestureKit
import PressPlot

/// `--plot FILE.png` of analyze, replay and calibrate: the help they share, and the saving.
enum PressPicture {
    static let help = "Also draw the contacts' force over time into this PNG file: a panel a contact (the 12 that pressed hardest when there are more), the deep press's threshold, release and ordinary lines (configured, and learned where learning moved them), and where each press was held back, claimed or handed over, and why."

    /// The file name without its directories, for the picture's title.
    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Refuses a `--plot` file that is one the command reads (its trace, its config, a state
    /// file): drawn over, a recording was gone (found in review of the CLI's errors).
    static func validate(_ plot: String?, reads inputs: [String]) throws {
        guard let plot else { return }
        for input in inputs where SymbolicLinks.sameFile(plot, input) {
            let named = plot == input ? "" : " (\(input))"
            throw ValidationError("--plot \(plot)\(named) is a file this command reads: name another file for the picture")
        }
    }

    /// Draws `presses` into `path`; a file that cannot be written is an error and exit status 1.
    static func save(_ presses: [PlottedPress], title: String, note: String? = nil, to path: String) throws {
        let layout = PlotLayout(presses: presses, title: title, note: note)
        do {
            try PlotRenderer.write(layout, to: path)
        } catch {
            throw CommandFailure.error("--plot: \(error.description)")
        }
        let shown = layout.panels.count == layout.contacts ? "\(layout.contacts)" : "\(layout.panels.count) of \(layout.contacts)"
        printError("Drew \(shown) contacts into \(path).")
    }
}
