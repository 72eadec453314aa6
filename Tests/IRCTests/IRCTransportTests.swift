import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import IRCClient
import IRCFixtures
import IRCProtocol
import ProgramDriver
import Testing

/// The session's transport over a real server: what an ``Outbox`` hands to an
/// ``IRCTransport`` is in flight until the server has it, then stored in this side's
/// history; the other side stores it once as it arrives; a refusal stores nothing. The
/// histories are read back with Python's `plistlib`.
@Suite("The IRC transport against InspIRCd and ngircd", .serialized)
struct IRCTransportTests {
    static let alice = try! GlobalKey(validating: "alice")
    static let bob = try! GlobalKey(validating: "bob")
    static let text = "你好世界 👩‍👩‍👧 e\u{301} مرحبا"

    /// One side: its data directory, its history, the transport and an outbox over it, and
    /// what its slices brought.
    final class Side {
        let fixture: Fixture
        let transport: IRCTransport
        let outbox: Outbox
        let history: any HistoryStore
        private(set) var arrivals: [Arrival] = []
        private(set) var deliveries: [Delivered] = []
        private(set) var events: [IRCClientEvent] = []
        /// What the store said of the arrivals.
        private(set) var warnings: [StoreWarning] = []
        /// Arrivals a take gave that were in the history before they were shown.
        private(set) var storedBeforeShown = 0
        /// The most arrivals one slice brought.
        private(set) var mostArrivalsInOneSlice = 0

        init(_ key: GlobalKey, port: Int, history: (any HistoryStore)? = nil) throws {
            fixture = try Fixture()
            self.history = try history ?? PropertyListHistory(directory: fixture.dataDirectory)
            let options = IRCClient.Options(
                server: ServerAddress(host: "127.0.0.1", port: port, usesTLS: false), nick: key.rawValue,
                caFile: nil, sendsTyping: false, welcomeTimeout: 10, pacing: .unlimited, reconnect: ReconnectPolicy())
            let client = try IRCClient(options: options)
            client.start()
            transport = IRCTransport(client: client, history: self.history, identity: key)
            outbox = Outbox(transport: transport, identity: key, clock: { Date() })
        }

        /// Takes slices until `done` holds, for at most `timeout` seconds.
        func pump(_ what: String, timeout: Double = 15, until done: (Side) -> Bool) throws {
            let deadline = PseudoTerminal.now() + timeout
            var more = false
            while !done(self) {
                guard PseudoTerminal.now() < deadline else {
                    throw PseudoTerminal.Failure(
                        description: "\(what) did not come within \(timeout) s; events: \(events), "
                            + "deliveries: \(deliveries), arrivals: \(arrivals.map(\.message.content))")
                }
                var entry = pollfd(fd: transport.descriptor, events: Int16(POLLIN), revents: 0)
                // A slice that left more is taken again at once, as a front end does.
                _ = poll(&entry, 1, more ? 0 : 200)
                let slice = transport.take()
                more = slice.hasMore
                mostArrivalsInOneSlice = max(mostArrivalsInOneSlice, slice.arrivals.count)
                // The front end shows a slice, then has its first arrival stored.
                if let first = slice.arrivals.first,
                    try history.recentMessages(in: first.chat, limit: 1).value.last?.messageID
                        == first.message.messageID
                {
                    storedBeforeShown += 1
                }
                warnings += slice.warnings + transport.storeShown()
                arrivals += slice.arrivals
                deliveries += slice.deliveries
                events += transport.takeEvents()
            }
        }

        func connected() throws {
            try pump("the welcome") { side in
                side.events.contains { if case .connected = $0 { true } else { false } }
            }
        }

        func fate(of id: String) throws -> Delivery {
            try pump("the fate of \(id)") { side in side.deliveries.contains { $0.messageID == id } }
            return deliveries.first { $0.messageID == id }!.delivery
        }
    }

    /// A history whose every append takes `seconds` (a slow disk); kept in memory.
    final class SlowHistory: HistoryStore {
        let stored = InMemoryHistory()
        let seconds: Double

        init(seconds: Double) { self.seconds = seconds }

        func append(_ message: Message, to chat: ChatID) throws(StoreError) -> [StoreWarning] {
            usleep(useconds_t(seconds * 1_000_000))
            return try stored.append(message, to: chat)
        }

        func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> Reading<[Message]> {
            try stored.recentMessages(in: chat, limit: limit)
        }

        func messageCount(in chat: ChatID) throws(StoreError) -> Reading<Int> { try stored.messageCount(in: chat) }

        func chats() throws(StoreError) -> Reading<[ChatSummary]> { try stored.chats() }

        func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> Reading<[ChatSummary]> {
            try stored.recentChats(limit: limit, where: include)
        }

        func follow(notifications: Bool) -> any HistoryFeed { stored.follow(notifications: notifications) }
    }

    @Test("A flood of arrivals is stored a few at a time: a take stores for 10 ms at most, and says more waits")
    func aFloodIsStoredAFewAtATime() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Side(Self.alice, port: server.port, history: SlowHistory(seconds: 0.002))
        try alice.connected()
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        for index in 0..<200 { try bob.send("PRIVMSG alice :flood \(index)") }
        // The server has relayed them all to alice before it answers this.
        try bob.send("PING :relayed")
        try bob.waitFor { $0.contains("PONG") && $0.contains("relayed") }
        try alice.pump("the flood") { $0.arrivals.count == 200 }
        #expect(alice.arrivals.map(\.message.content) == (0..<200).map { "flood \($0)" })
        // At 2 ms an append, a take that stored all one read brought would store them all.
        #expect(alice.mostArrivalsInOneSlice < 20, "\(alice.mostArrivalsInOneSlice)")
        // Each take's first arrival is shown before its append, and history keeps the order.
        #expect(alice.storedBeforeShown == 0)
        #expect(alice.warnings.isEmpty)
        let stored = try alice.history.recentMessages(in: #require(ChatID("alice+bob")), limit: 300).value
        #expect(stored.map(\.content) == (0..<200).map { "flood \($0)" })
    }

    @Test("A message each way: in flight, acknowledged, stored once on each side", arguments: IRCServer.Kind.allCases)
    func aMessageEachWayIsStoredOnceOnEachSide(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let alice = try Side(Self.alice, port: server.port)
        let bob = try Side(Self.bob, port: server.port)
        try alice.connected()
        try bob.connected()
        let sent = alice.outbox.send(Self.text, attachments: [], to: .privateChat(Self.bob))
        #expect(sent.stored.isEmpty && sent.failure == nil)
        let id = try #require(sent.inFlight.first?.message.messageID)
        #expect(try alice.fate(of: id) == .acknowledged([]))
        try bob.pump("alice's message") { side in !side.arrivals.isEmpty }
        let chat = "alice+bob"
        #expect(bob.arrivals.map(\.chat.rawValue) == [chat])
        #expect(bob.arrivals.first?.message.content == Self.text)
        // A location goes as a geo: URI and is stored as a location.
        let location = Message(
            chatID: chat, messageID: "loc-1", target: "bob", mineHead: "alice", otherHead: "bob", type: "location",
            address: "Alexanderplatz", latitude: 52.520008, longitude: 13.404954, sentAt: Date(), sender: "alice")
        #expect(alice.transport.send(location, to: try #require(ChatID(chat))) == .inFlight)
        #expect(try alice.fate(of: "loc-1") == .acknowledged([]))
        try bob.pump("the location") { side in side.arrivals.count == 2 }
        // bob answers.
        let answer = bob.outbox.send("and to you", attachments: [], to: .privateChat(Self.alice))
        let answerID = try #require(answer.inFlight.first?.message.messageID)
        #expect(try bob.fate(of: answerID) == .acknowledged([]))
        try alice.pump("bob's answer") { side in !side.arrivals.isEmpty }
        // An arrival is on the screen before its durable append (issue 33's delivery).
        #expect(alice.storedBeforeShown == 0 && bob.storedBeforeShown == 0)
        // Each side's history, read by plistlib: every message once, in order.
        let alices = try alice.fixture.messages(in: chat)
        #expect(alices.map(\.content) == [Self.text, "", "and to you"])
        #expect(alices.map(\.sender) == ["alice", "alice", "bob"])
        let bobs = try bob.fixture.messages(in: chat)
        #expect(bobs.map(\.content) == [Self.text, "", "and to you"])
        #expect(bobs.map(\.sender) == ["alice", "alice", "bob"])
        #expect(bobs[1].type == "location" && bobs[1].address == "Alexanderplatz")
        #expect(abs(bobs[1].latitude - 52.520008) < 1e-9 && abs(bobs[1].longitude - 13.404954) < 1e-9)
    }

    @Test(
        "A send to nobody fails with 401 and stores nothing; before the welcome, fails at once",
        arguments: IRCServer.Kind.allCases)
    func aRefusedSendStoresNothing(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let alice = try Side(Self.alice, port: server.port)
        let early = alice.outbox.send("too soon", attachments: [], to: .privateChat(Self.bob))
        #expect(early.failure?.error == .notDelivered(.notConnected))
        #expect(early.failure?.unsent.text?.text == "too soon")
        try alice.connected()
        let nobody = try GlobalKey(validating: "nobody")
        let sent = alice.outbox.send("hello?", attachments: [], to: .privateChat(nobody))
        let id = try #require(sent.inFlight.first?.message.messageID)
        #expect(try alice.fate(of: id) == .failed(.notDelivered(.noSuchUser("nobody"))))
        #expect(try alice.fixture.messages(in: "alice+nobody").isEmpty)
        #expect(try alice.fixture.messages(in: "alice+bob").isEmpty)
    }
}
