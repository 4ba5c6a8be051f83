import Foundation
import GestureKit
import Testing
@testable import X11Bridge

/// Every ownership report as `run --json` prints it (docs/trace-format.md), and read back into
/// the type that printed it.
@Suite("Ownership reports as lines")
struct OwnershipReportLineTests {
    static let pen = ContactKey(device: 6, contact: 0)
    static let touch = ContactKey(device: 7, contact: 1)

    static let reports: [(OwnershipReport, String)] = [
        (.holding(.press), #"{"ownership":"holding","input":"press"}"#),
        (.cannotHold(.touch), #"{"ownership":"cannot-hold","input":"touch"}"#),
        (.kept(touch, .touch, gesture: "right-click", held: 0.212),
         #"{"ownership":"kept","input":"touch","device":7,"contact":1,"winner":"right-click","held":0.212}"#),
        (.kept(pen, .press, gesture: "right-click", held: nil),
         #"{"ownership":"kept","input":"press","device":6,"contact":0,"winner":"right-click"}"#),
        (.replayed(pen, .press, reason: .ended, held: 0.08),
         #"{"ownership":"replayed","input":"press","device":6,"contact":0,"reason":"lifted","held":0.08}"#),
        (.letGo(.press, count: 1, reason: "the bridge is stopping"),
         #"{"ownership":"let-go","input":"press","count":1,"reason":"the bridge is stopping"}"#),
        (.cannotDetach(device: 6, status: 3), #"{"ownership":"cannot-detach","device":6,"status":3}"#),
        (.touchChoiceDeferred(touch), #"{"ownership":"deferred","input":"touch","device":7,"contact":1}"#),
        (.touchGone(touch), #"{"ownership":"gone","input":"touch","device":7,"contact":1}"#),
        (.bug("a \"quoted\" step"), #"{"ownership":"bug","message":"a \"quoted\" step"}"#),
    ]

    @Test("each report prints the contract's keys in its order, and reads back", arguments: Self.reports)
    func line(report: OwnershipReport, json: String) throws {
        #expect(report.json == json)
        #expect(try JSONDecoder().decode(OwnershipLine.self, from: Data(json.utf8)) == report.line)
    }
}
