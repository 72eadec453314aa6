import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// A transport whose sends are acknowledged or refused later (as a chat server's are):
/// the session holds each send in flight by its ID, shows it as sent only when
/// acknowledged, and gives a refused one back as SPEC §1a says.
@Suite("Sends in flight, as data")
struct InFlightSendTests {
    /// Holds every send in flight until the test says what became of it.
    final class HeldTransport: Transport {
        var sent: [Message] = []
        private var told: [Delivered] = []

        var descriptor: Int32 { -1 }

        func send(_ message: Message, to chat: ChatID) -> Delivery {
            sent.append(message)
            return .inFlight
        }

        func take() -> FeedSlice {
            defer { told = [] }
            return FeedSlice(deliveries: told)
        }

        /// The fate of every send so far.
        func tell(_ delivery: Delivery) {
            told += sent.map { Delivered(messageID: $0.messageID, delivery: delivery) }
            sent = []
        }
    }

    let transport = HeldTransport()
    static let bob = try! GlobalKey(validating: "bob")
    static let refusal = StoreError.unavailable(FileError("send", path: "bob", code: ENOTCONN))

    func session(_ capabilities: Capabilities) -> Session {
        Session(
            contacts: ContactBook([Contact(key: Self.bob, name: "Bob")]), history: MemoryHistory(),
            capabilities: capabilities, transport: transport)
    }

    @Test func aSendIsShownAsSentOnlyWhenAcknowledged() {
        let session = session(.terminal)
        session.handle(.line("/open bob"))
        let handed = session.handle(.line("hello"))
        #expect(!handed.reports.contains { if case .sent = $0 { true } else { false } })
        #expect(session.live.inFlight.count == 1)
        #expect(session.drafts.isEmpty)
        transport.tell(.acknowledged([]))
        let reports = session.receive(transport.take())
        #expect(reports.compactMap { if case .sent(let message) = $0 { message.content } else { nil } } == ["hello"])
        #expect(session.live.inFlight.isEmpty)
        #expect(!session.hadSendFailure)
    }

    @Test func aRefusedSendIsTheDraftAgainWhereItWasOnATerminal() {
        let session = session(.terminal)
        session.handle(.line("/open bob"))
        session.handle(.line("hello"))
        session.handle(.line("/back"))
        transport.tell(.failed(Self.refusal))
        let reports = session.receive(transport.take())
        #expect(reports.contains(.error(.notSent(Self.refusal))))
        #expect(session.drafts.text(for: InputTarget.privateChat(Self.bob).draftKey)?.text == "hello")
        #expect(session.drafts.undoStack.isEmpty)
        #expect(session.live.inFlight.isEmpty && session.hadSendFailure)
        // Back in the chat, the line holds it.
        session.handle(.line("/open bob"))
        #expect(session.line.text == "hello")
    }

    @Test func aRefusedSendWhileItsChatIsTypedInGoesOnTheUndoStack() {
        let session = session(.terminal)
        session.handle(.line("/open bob"))
        session.handle(.line("hello"))
        transport.tell(.failed(Self.refusal))
        let reports = session.receive(transport.take())
        // The line being typed is the user's: the refused text waits on the undo stack.
        #expect(reports.contains(.error(.notSentSetAside(Self.refusal, text: "hello"))))
        #expect(session.drafts.undoStack.map(\.draft.text?.text) == ["hello"])
        #expect(session.drafts.isEmpty)
        session.handle(.line("/undo"))
        #expect(session.line.text == "hello")
    }

    @Test func aRefusedSendOnAPipeGoesOnTheUndoStack() {
        let session = session(.pipe)
        session.handle(.line("/open bob"))
        session.handle(.line("hello"))
        session.handle(.line("/back"))
        transport.tell(.failed(Self.refusal))
        let reports = session.receive(transport.take())
        #expect(reports.contains(.error(.notSentSetAside(Self.refusal, text: "hello"))))
        #expect(session.drafts.undoStack.map(\.draft.text?.text) == ["hello"])
        #expect(session.drafts.isEmpty && session.hadSendFailure)
    }

    @Test func aDeliveryOfNoSendInFlightChangesNothing() {
        let session = session(.terminal)
        session.handle(.line("/open bob"))
        let stray = Delivered(messageID: "x", delivery: .failed(Self.refusal))
        let reports = session.receive(FeedSlice(deliveries: [stray]))
        #expect(reports.isEmpty && session.drafts.isEmpty && session.drafts.undoStack.isEmpty)
    }
}
