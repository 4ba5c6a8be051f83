import Testing
import X11Bridge

@Suite("Stimulus fidelity: what a live test meant against what the server stamped")
struct StimulusFidelityTests {
    /// 100 Hz for a tenth of a second, then the lift right after the last sample.
    static let intended = (0...10).map { Double($0) / 100 } + [0.1]
    /// Touch-down stamped at server time 5000 ms.
    static func stamps(_ offsets: [Int]) -> [UInt] { offsets.map { UInt(5000 + $0) } }
    static let onTime = stamps((0...10).map { $0 * 10 } + [100])

    /// A 2 ms tolerance, so that the cases below are whole milliseconds of the server's clock.
    let fidelity = StimulusFidelity(offset: 0.002, extraGap: 0.002)

    /// Sample `index`'s time in the curve, from touch-down.
    static func due(_ index: Int, shift: Double = 0) -> Double { intended[index] - intended[0] + shift }

    @Test("samples on their times, or within the server clock's millisecond either way, are faithful")
    func onTimeIsFaithful() {
        #expect(fidelity.judge(intended: Self.intended, arrived: Self.onTime) == .faithful(worstOffset: 0))
        let jittered = Self.stamps([0, 11, 19, 31, 40, 50, 61, 70, 79, 90, 101, 102])
        #expect(fidelity.judge(intended: Self.intended, arrived: jittered).isFaithful)
    }

    @Test("a delay every sample shares is no distortion: the bridge sees only the stamps' distances")
    func sharedDelay() {
        let shifted = Self.onTime.map { $0 + 300 }
        #expect(fidelity.judge(intended: Self.intended, arrived: shifted) == .faithful(worstOffset: 0))
        // A curve whose first time is not 0 counts from it.
        #expect(fidelity.judge(intended: Self.intended.map { $0 + 2 }, arrived: Self.onTime).isFaithful)
    }

    @Test("a touch-down stamped late is one sample off, not all the others")
    func lateTouchDown() {
        var twoLate = Self.onTime
        twoLate[0] += 2
        #expect(fidelity.judge(intended: Self.intended, arrived: twoLate).isFaithful)
        var fiveLate = Self.onTime
        fiveLate[0] += 5
        // Counted from the late touch-down the others are 5 ms early; the curve sits where they
        // are, so the touch-down is due 5 ms before its stamp.
        guard case .distorted(.offTime(let index, let due, let arrived)) = fidelity.judge(intended: Self.intended, arrived: fiveLate) else {
            Issue.record("a touch-down 5 ms late is off by more than 2 ms")
            return
        }
        #expect(index == 0 && abs(due + 0.005) < 1e-9 && arrived == 0)
    }

    @Test("exactly at the limit is within it; a millisecond past it is not")
    func limits() {
        var atLimit = Self.onTime
        atLimit[5] += 2
        guard case .faithful(let worst) = fidelity.judge(intended: Self.intended, arrived: atLimit) else {
            Issue.record("2 ms off is within 2 ms")
            return
        }
        #expect(abs(worst - 0.002) < 1e-9)
        var past = Self.onTime
        past[5] += 3
        #expect(fidelity.judge(intended: Self.intended, arrived: past)
                == .distorted(.offTime(index: 5, due: Self.due(5), arrived: 0.053)))
    }

    @Test("an injector that fell behind and caught up, its owed samples all at once, is distorted at the first late one")
    func stallAndCatchUp() {
        // Held back 40 ms at sample 3, then samples 4 to 6 sent at once as it catches up.
        let stalled = Self.stamps([0, 10, 20, 70, 70, 71, 71, 72, 80, 90, 100, 100])
        #expect(fidelity.judge(intended: Self.intended, arrived: stalled)
                == .distorted(.offTime(index: 3, due: Self.due(3), arrived: 0.07)))
    }

    @Test("an injector that fell behind for good is distorted where it fell behind")
    func lastingStep() {
        // From sample 8 on, everything 3 ms later.
        let stepped = Self.stamps([0, 10, 20, 30, 40, 50, 60, 70, 83, 93, 103, 103])
        #expect(fidelity.judge(intended: Self.intended, arrived: stepped)
                == .distorted(.offTime(index: 8, due: Self.due(8), arrived: 0.083)))
        // Allowed further from its time, the step is still a gap the curve did not have.
        let loose = StimulusFidelity(offset: 0.005, extraGap: 0.002)
        #expect(loose.judge(intended: Self.intended, arrived: stepped)
                == .distorted(.gap(index: 8, intended: Self.due(8) - Self.due(7), arrived: 0.013)))
    }

    @Test("a gap the curve did not have is distorted even while every sample stays near its time")
    func gapWithinOffset() {
        let loose = StimulusFidelity(offset: 0.005, extraGap: 0.002)
        // Sample 4 is 4 ms early and sample 5 is 4 ms late: each within 5 ms, 18 ms apart instead of 10.
        let stretched = Self.stamps([0, 10, 20, 30, 36, 54, 60, 70, 80, 90, 100, 100])
        #expect(loose.judge(intended: Self.intended, arrived: stretched)
                == .distorted(.gap(index: 5, intended: Self.due(5) - Self.due(4), arrived: 0.018)))
    }

    @Test("a sample that arrived early is distorted: it is another curve as much as a late one")
    func early() {
        var early = Self.onTime
        early[7] -= 5
        #expect(fidelity.judge(intended: Self.intended, arrived: early)
                == .distorted(.offTime(index: 7, due: Self.due(7), arrived: 0.065)))
    }

    @Test("the standard tolerance, a tenth of the hold's trend window, takes 20 ms and no more")
    func standard() {
        #expect(StimulusFidelity.standard == StimulusFidelity(offset: 0.02, extraGap: 0.02))
        // 15 ms late is after the next sample's stamp: out of order, and still within 20 ms.
        var late = Self.onTime
        late[5] += 15
        #expect(StimulusFidelity.standard.judge(intended: Self.intended, arrived: late).isFaithful)
        late[5] += 10
        #expect(StimulusFidelity.standard.judge(intended: Self.intended, arrived: late)
                == .distorted(.offTime(index: 5, due: Self.due(5), arrived: 0.075)))
    }

    @Test("samples lost or a lift that never came leave the counts apart: distorted, never a pass")
    func counts() {
        #expect(fidelity.judge(intended: Self.intended, arrived: Array(Self.onTime.dropLast()))
                == .distorted(.count(sent: 12, arrived: 11)))
        #expect(fidelity.judge(intended: Self.intended, arrived: [])
                == .distorted(.count(sent: 12, arrived: 0)))
        #expect(!fidelity.judge(intended: [], arrived: []).isFaithful)
    }

    @Test("the server's 32-bit millisecond clock wrapping between two samples is no gap")
    func wrappingClock() {
        let nearWrap = UInt(UInt32.max) - 25
        let wrapped = (0...10).map { UInt(UInt32(truncatingIfNeeded: nearWrap + UInt($0 * 10))) }
            + [UInt(UInt32(truncatingIfNeeded: nearWrap + 100))]
        #expect(fidelity.judge(intended: Self.intended, arrived: wrapped) == .faithful(worstOffset: 0))
        #expect(StimulusFidelity.seconds(from: UInt(UInt32.max), to: 4) == 0.005)
        #expect(StimulusFidelity.seconds(from: 4, to: UInt(UInt32.max)) == -0.005)
    }

    @Test("a distortion says which sample, how far off and when")
    func descriptions() {
        #expect(StimulusDistortion.offTime(index: 100, due: 2.803, arrived: 2.877).description
                == "sample 100 arrived 74 ms late: 2.877 s after touch-down, due at 2.803 s")
        #expect(StimulusDistortion.offTime(index: 0, due: -0.008, arrived: 0).description
                == "the touch-down arrived 8 ms late against the curve's other samples")
        #expect(StimulusDistortion.gap(index: 5, intended: 0.01, arrived: 0.018).description
                == "samples 4 and 5 arrived 18 ms apart instead of 10 ms")
        #expect(StimulusDistortion.count(sent: 12, arrived: 11).description == "the server took 11 samples of the 12 sent")
    }

    // MARK: - Which raw events are the contact's

    static func raw(_ kind: RawInput.Kind, _ time: UInt, detail: Int = 0, flags: Int32 = 0) -> RawInput {
        RawInput(kind: kind, device: 9, source: 9, detail: detail, flags: flags, serverTime: time, axisValues: [])
    }

    @Test("a pen's contact runs from the tip's press to its release; hover before it and what follows the lift are not its")
    func penContact() {
        let events = [
            Self.raw(.motion, 90), Self.raw(.buttonPress, 100, detail: 1), Self.raw(.motion, 110),
            Self.raw(.buttonPress, 115, detail: 2), Self.raw(.motion, 120), Self.raw(.buttonRelease, 130, detail: 1),
            Self.raw(.motion, 140), Self.raw(.buttonPress, 150, detail: 1),
        ]
        #expect(ContactArrivals(events) == ContactArrivals(samples: [100, 110, 120], lift: 130))
    }

    @Test("a touch's contact is its own begin, updates and end; another touch's are not its")
    func touchContact() {
        let events = [
            Self.raw(.touchBegin, 200, detail: 4), Self.raw(.touchBegin, 205, detail: 5),
            Self.raw(.touchUpdate, 210, detail: 4), Self.raw(.touchUpdate, 212, detail: 5),
            Self.raw(.motion, 213, flags: 0x10000), Self.raw(.touchEnd, 220, detail: 4),
        ]
        #expect(ContactArrivals(events) == ContactArrivals(samples: [200, 210], lift: 220))
    }

    @Test("a contact still down has no lift; nothing down is no contact")
    func openAndNone() {
        #expect(ContactArrivals([Self.raw(.buttonPress, 1, detail: 1), Self.raw(.motion, 2)])
                == ContactArrivals(samples: [1, 2], lift: nil))
        #expect(ContactArrivals([Self.raw(.motion, 1), Self.raw(.buttonRelease, 2, detail: 1)]) == ContactArrivals())
    }
}
