import Foundation
import Testing
@testable import DuetApp

/// The observer hears the run in order, and calls posted while a batch waits
/// share one wake of its queue (issue 42, item 6: a queue hop per event woke
/// the observer's thread twice a lane).
@Suite("The observer's mailbox")
struct ObserverMailboxTests {
  final class Heard: @unchecked Sendable {
    var values: [Int] = []
  }

  @Test func callsRunInTheOrderPosted() {
    let mailbox = ObserverMailbox(label: "test")
    let heard = Heard()
    for value in 0..<2_000 { mailbox.post { heard.values.append(value) } }
    mailbox.waitUntilDelivered()
    #expect(heard.values == Array(0..<2_000))
  }

  @Test func callsPostedWhileABatchWaitsShareOneWake() {
    let mailbox = ObserverMailbox(label: "test")
    let heard = Heard()
    let gate = DispatchSemaphore(value: 0)
    // The first call holds the queue; the hundred posted meanwhile wait as one batch.
    mailbox.post { gate.wait() }
    for value in 0..<100 { mailbox.post { heard.values.append(value) } }
    gate.signal()
    let batches = mailbox.waitUntilDelivered()
    #expect(heard.values == Array(0..<100))
    #expect(batches <= 2, "\(batches) wakes for 101 calls")
  }

  /// Held until flushed, calls wait for the run loop's `flush` (made as it is
  /// about to block), so the observer's wake never comes between a lane's end
  /// and its dependents' start; `waitUntilDelivered` flushes what is left.
  @Test func heldCallsWaitForTheFlush() {
    let mailbox = ObserverMailbox(label: "test", heldUntilFlush: true)
    let heard = Heard()
    for value in 0..<10 { mailbox.post { heard.values.append(value) } }
    mailbox.waitUntilIdle()
    #expect(heard.values.isEmpty, "held calls ran before the flush")
    mailbox.flush()
    mailbox.waitUntilIdle()
    #expect(heard.values == Array(0..<10))
    mailbox.post { heard.values.append(10) }
    let batches = mailbox.waitUntilDelivered()
    #expect(heard.values == Array(0...10))
    #expect(batches == 2)
  }
}
