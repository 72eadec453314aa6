import IRCProtocol
import Testing

/// The client's state machine as data: lines and time in, lines and events out.
@Suite("The client's protocol machine, as data")
struct ClientCoreTests {
    /// A core and the lines it wrote, with a server's lines fed by text.
    struct Harness {
        var core: ClientCore
        var now = 100.0

        init(echo: Bool = true, tags: Bool = true, sendsTyping: Bool = true, pacing: OutputPacing = .unlimited) {
            core = ClientCore(
                configuration: ClientCore.Configuration(nick: "alice", pacing: pacing, sendsTyping: sendsTyping))
            core.start(at: now)
            var offered: [String] = ["server-time"]
            if echo { offered.append("echo-message") }
            if tags { offered.append("message-tags") }
            _ = written()
            feed(":srv CAP * LS :\(offered.joined(separator: " "))")
            feed(":srv CAP * ACK :\(offered.sorted().joined(separator: " "))")
            feed(":srv 001 alice :Welcome to the TestNet IRC Network alice!~alice@127.0.0.1")
            _ = written()
            _ = core.takeEvents()
        }

        mutating func feed(_ line: String) { core.receive(IRCMessage(parsing: line)!, at: now) }

        mutating func written() -> [String] { core.takeOutgoing(at: now).map { try! $0.serialized() } }

        mutating func events() -> [ClientEvent] { core.takeEvents() }
    }

    @Test("Registration: CAP LS 302, NICK and USER, REQ of what is offered, END, then the welcome")
    func registration() throws {
        var core = ClientCore(configuration: ClientCore.Configuration(nick: "alice", pacing: .unlimited))
        core.start(at: 0)
        #expect(
            core.takeOutgoing(at: 0).map { try! $0.serialized() } == [
                "CAP LS 302", "NICK alice", "USER alice 0 * draftline",
            ])
        core.receive(
            IRCMessage(parsing: ":srv CAP * LS :echo-message message-tags server-time labeled-response")!, at: 0.1)
        #expect(
            core.takeOutgoing(at: 0.1).map { try! $0.serialized() } == [
                "CAP REQ :echo-message message-tags server-time"
            ])
        core.receive(IRCMessage(parsing: ":srv CAP alice ACK :echo-message message-tags server-time")!, at: 0.2)
        #expect(core.takeOutgoing(at: 0.2).map { try! $0.serialized() } == ["CAP END"])
        core.join("#tweet_1")  // a thread opened while registering: joined once welcomed
        #expect(core.takeOutgoing(at: 0.3).isEmpty)
        core.receive(IRCMessage(parsing: ":srv 001 alice :Welcome alice!~alice@10.0.0.7")!, at: 1)
        #expect(core.phase == .registered)
        #expect(core.source == IRCSource(nick: "alice", user: "~alice", host: "10.0.0.7"))
        #expect(
            core.takeEvents() == [
                .registered(nick: "alice", capabilities: ["echo-message", "message-tags", "server-time"])
            ])
        #expect(core.takeOutgoing(at: 1).map { try! $0.serialized() } == ["USERHOST alice", "JOIN #tweet_1"])
        core.receive(IRCMessage(parsing: ":srv 302 alice :alice=+~al@host.example")!, at: 1)
        #expect(core.source.description == "alice!~al@host.example")
    }

    @Test("Registration fails with one reason each: 432, 433, ERROR, no welcome within 10 s")
    func registrationFailures() {
        func failure(_ lines: [String], at time: Double = 1) -> [ClientEvent] {
            var core = ClientCore(configuration: ClientCore.Configuration(nick: "alice"))
            core.start(at: 0)
            for line in lines { core.receive(IRCMessage(parsing: line)!, at: time) }
            core.tick(at: time)
            return core.takeEvents()
        }
        #expect(
            failure([":srv 432 * alice :Erroneous Nickname"])
                == [
                    .registrationFailed(.erroneousNick("alice", text: "Erroneous Nickname")),
                    .closed(.registrationFailed),
                ])
        #expect(
            failure([":srv 433 * alice :Nickname is already in use"]).first == .registrationFailed(.nickInUse("alice")))
        #expect(
            failure(["ERROR :Closing link: (Access denied)"]).first
                == .registrationFailed(.refused("Closing link: (Access denied)")))
        #expect(failure([], at: 9.9).isEmpty)
        #expect(failure([], at: 10).first == .registrationFailed(.noWelcome(seconds: 10)))
    }

    @Test("PING is answered at once with its token, before lines waiting for the pacing")
    func ping() {
        // The burst of 3 went on CAP LS, NICK and USER; CAP END and USERHOST are answers.
        var harness = Harness(pacing: OutputPacing(burst: 3, interval: 10))
        _ = try? harness.core.send("one", to: "bob")
        _ = try? harness.core.send("two", to: "bob")
        harness.feed("PING :LAG 123")
        #expect(harness.written() == ["PONG :LAG 123"])
        harness.now += 10
        harness.feed("PING LAG124")
        #expect(harness.written() == ["PONG LAG124", "PRIVMSG bob :one"])
        #expect(harness.written().isEmpty)
        harness.now += 10
        #expect(harness.written() == ["PRIVMSG bob :two"])
    }

    @Test("A typing notification never delays a message: it goes last, leaving a slot; a message drops it")
    func typingGoesLast() throws {
        // The burst of 3 went on registering; a slot comes every 10 s.
        var harness = Harness(pacing: OutputPacing(burst: 3, interval: 10))
        harness.now += 20
        harness.core.sendTyping(.active, to: "bob")
        // Two slots: the typing state may take one, since one stays free.
        #expect(harness.written() == ["@+typing=active TAGMSG bob"])
        harness.core.sendTyping(.paused, to: "carol")
        harness.core.sendTyping(.done, to: "carol")
        _ = try harness.core.send("hi", to: "bob")
        // One slot: the message takes it, before carol's states.
        #expect(harness.written() == ["PRIVMSG bob :hi"])
        harness.now += 10
        #expect(harness.core.nextDeadline(after: harness.now) == harness.now + 10)
        #expect(harness.written().isEmpty)
        harness.core.sendTyping(.active, to: "bob")
        _ = try harness.core.send("again", to: "Bob")
        // A message drops the state still waiting for its target: it ends that typing.
        #expect(harness.written() == ["PRIVMSG Bob :again"])
        harness.now += 20
        #expect(harness.written() == ["@+typing=paused TAGMSG carol"])
        // Quitting sends what the pacing still holds of typing, then QUIT.
        harness.core.quit()
        #expect(harness.written() == ["@+typing=done TAGMSG carol", "QUIT"])
    }

    @Test("With echo-message a send is acknowledged by its echo, with the echo's time and msgid")
    func echoAcknowledges() throws {
        var harness = Harness()
        let id = try harness.core.send("héllo 你好 😀", to: "bob")
        #expect(harness.written() == ["PRIVMSG bob :héllo 你好 😀"])
        #expect(harness.events().isEmpty)  // written is not acknowledged
        harness.feed("@time=2026-12-01T14:23:28.547Z;msgid=m1 :alice!~alice@127.0.0.1 PRIVMSG bob :héllo 你好 😀")
        let events = harness.events()
        guard case .acknowledged(id, let time?, "m1")? = events.first else {
            Issue.record("no acknowledgement: \(events)")
            return
        }
        #expect(abs(time - 1_796_135_008.547) < 1e-6)
    }

    @Test("401 and 404 fail the oldest unanswered line to their target, not another's")
    func errorsFailTheirSend() throws {
        var harness = Harness()
        let toCarol = try harness.core.send("hi carol", to: "carol")
        let toBob = try harness.core.send("hi bob", to: "Bob")
        let toThread = try harness.core.send("hi all", to: "#tweet_1")
        _ = harness.written()
        harness.feed(":srv 401 alice bob :No such nick")
        harness.feed(":srv 404 alice #tweet_1 :Cannot send to channel")
        harness.feed(":alice!~alice@127.0.0.1 PRIVMSG carol :hi carol")
        #expect(
            harness.events() == [
                .failed(toBob, .noSuchNick("bob"), delivered: 0),
                .failed(toThread, .cannotSendToChannel("#tweet_1"), delivered: 0),
                .acknowledged(toCarol, time: nil, messageID: nil),
            ])
    }

    @Test("A multi-line message is acknowledged when its last line is; a refused line fails it with what was delivered")
    func multiLine() throws {
        var harness = Harness()
        let id = try harness.core.send("one\ntwo\nthree", to: "bob")
        #expect(harness.written() == ["PRIVMSG bob :one", "PRIVMSG bob :two", "PRIVMSG bob :three"])
        harness.feed(":alice!~alice@h PRIVMSG bob :one")
        harness.feed(":srv 401 alice bob :No such nick")
        harness.feed(":srv 401 alice bob :No such nick")
        #expect(harness.events() == [.failed(id, .noSuchNick("bob"), delivered: 1)])
        // The next send is not touched by the answers the failed one was still owed.
        let next = try harness.core.send("four", to: "bob")
        _ = harness.written()
        harness.feed(":alice!~alice@h PRIVMSG bob :four")
        #expect(harness.events() == [.acknowledged(next, time: nil, messageID: nil)])
    }

    @Test("An echo shorter than what was sent means the server cut it: the send fails")
    func cut() throws {
        var harness = Harness()
        let id = try harness.core.send("abcdef", to: "bob")
        _ = harness.written()
        harness.feed(":alice!~alice@h PRIVMSG bob :abc")
        #expect(harness.events() == [.failed(id, .cut(sent: 6, relayed: 3), delivered: 0)])
    }

    @Test("Without echo-message a PING fence acknowledges what went before it, unless an error came first")
    func fence() throws {
        var harness = Harness(echo: false, tags: false)
        let first = try harness.core.send("one", to: "bob")
        let second = try harness.core.send("two", to: "dave")
        #expect(harness.written() == ["PRIVMSG bob :one", "PRIVMSG dave :two", "PING draftline-1"])
        harness.feed(":srv 401 alice dave :No such nick")
        harness.feed(":srv PONG srv :draftline-1")
        #expect(
            harness.events() == [
                .failed(second, .noSuchNick("dave"), delivered: 0), .acknowledged(first, time: nil, messageID: nil),
            ])
    }

    @Test("A long message goes as lines that fit the relayed budget, re-measured once the host is known")
    func longMessage() throws {
        var harness = Harness()
        let text = String(repeating: "你好", count: 300)
        _ = try harness.core.send(text, to: "bob")
        let lines = harness.written()
        #expect(lines.count == 4)
        #expect(lines.map { String($0.dropFirst("PRIVMSG bob :".count)) }.joined() == text)
        for line in lines { #expect((":alice!~alice@127.0.0.1 " + line).utf8.count <= 510) }
    }

    @Test("Typing goes as a TAGMSG only when message-tags was acknowledged and typing is on")
    func typingGate() {
        var tagged = Harness()
        let queued = tagged.core.sendTyping(.paused, to: "bob")
        #expect(queued && tagged.written() == ["@+typing=paused TAGMSG bob"])
        var untagged = Harness(echo: false, tags: false)
        let untaggedQueued = untagged.core.sendTyping(.active, to: "bob")
        #expect(!untaggedQueued && untagged.written().isEmpty)
        var quiet = Harness(sendsTyping: false)
        let quietQueued = quiet.core.sendTyping(.active, to: "bob")
        #expect(!quietQueued && quiet.written().isEmpty)
    }

    @Test("A typing error (401 for a TAGMSG) is no send's failure")
    func typingError() throws {
        var harness = Harness()
        harness.core.sendTyping(.active, to: "bob")
        #expect(harness.written() == ["@+typing=active TAGMSG bob"])
        let id = try harness.core.send("hi", to: "bob")
        #expect(harness.written() == ["PRIVMSG bob :hi"])
        harness.feed(":srv 401 alice bob :No such nick")  // for the TAGMSG
        #expect(harness.events().isEmpty)
        harness.feed(":srv 401 alice bob :No such nick")  // for the PRIVMSG
        #expect(harness.events() == [.failed(id, .noSuchNick("bob"), delivered: 0)])
    }

    @Test("Received typing: shown, renewed, expired after 6 s; paused after 30 s; a message ends it")
    func receivedTyping() {
        var harness = Harness()
        harness.feed("@+typing=active :bob!~bob@h TAGMSG alice")
        #expect(harness.events() == [.typing(from: "bob", in: .nick("bob"), state: .active)])
        harness.now += 5
        harness.feed("@+typing=active :bob!~bob@h TAGMSG alice")
        harness.core.tick(at: harness.now + 5.9)
        #expect(harness.events().isEmpty)
        harness.core.tick(at: harness.now + 6)
        #expect(harness.events() == [.typing(from: "bob", in: .nick("bob"), state: .done)])
        harness.feed("@+typing=paused :Bob!~bob@h TAGMSG #tweet_1")
        harness.feed(":Bob!~bob@h PRIVMSG #tweet_1 :done typing")
        let events = harness.events()
        #expect(events.first == .typing(from: "bob", in: .channel("#tweet_1"), state: .paused))
        #expect(events.dropFirst().first == .typing(from: "bob", in: .channel("#tweet_1"), state: .done))
    }

    @Test("Messages: private and channel, ACTION, server time and msgid; CTCP VERSION answered once in 2 s")
    func incoming() {
        var harness = Harness()
        harness.feed("@time=1970-01-01T00:00:01.000Z;msgid=x :bob!~bob@h PRIVMSG alice :hi")
        harness.feed(":bob!~bob@h PRIVMSG #tweet_1 :\u{1}ACTION waves\u{1}")
        harness.feed(":bob!~bob@h PRIVMSG alice :\u{1}VERSION\u{1}")
        harness.feed(":bob!~bob@h PRIVMSG alice :\u{1}VERSION\u{1}")
        let bob = IRCSource(nick: "bob", user: "~bob", host: "h")
        #expect(
            harness.events() == [
                .message(IncomingMessage(source: bob, conversation: .nick("bob"), text: "hi", time: 1, messageID: "x")),
                .message(
                    IncomingMessage(source: bob, conversation: .channel("#tweet_1"), text: "waves", kind: .action)),
            ])
        #expect(harness.written() == ["NOTICE bob :\u{1}VERSION draftline\u{1}"])
    }

    @Test("A silent server gets a PING after 90 s and counts as gone 30 s later; pending sends fail")
    func unresponsive() throws {
        var harness = Harness()
        harness.core.tick(at: harness.now + 89)
        #expect(harness.written().isEmpty)
        harness.core.tick(at: harness.now + 90)
        #expect(
            harness.core.takeOutgoing(at: harness.now + 90).map { try! $0.serialized() } == ["PING draftline-keepalive"]
        )
        harness.now += 100
        let id = try harness.core.send("lost", to: "bob")
        _ = harness.written()
        harness.core.tick(at: harness.now + 20)
        #expect(harness.events() == [.failed(id, .noAnswer, delivered: 0), .closed(.unresponsive)])
    }

    @Test("ERROR after the welcome closes the connection; pending sends fail as disconnected")
    func serverError() throws {
        var harness = Harness()
        let id = try harness.core.send("bye", to: "bob")
        _ = harness.written()
        harness.feed("ERROR :Closing link: (Server shutdown)")
        #expect(
            harness.events() == [
                .failed(id, .disconnected, delivered: 0), .closed(.serverError("Closing link: (Server shutdown)")),
            ])
        #expect(throws: SendRefusal.notConnected) { try harness.core.send("after", to: "bob") }
    }

    @Test("Channel members from NAMES, JOIN, PART, QUIT and NICK")
    func roster() {
        var harness = Harness()
        harness.feed(":alice!~alice@h JOIN #tweet_1")
        harness.feed(":srv 353 alice = #tweet_1 :@alice +bob carol")
        harness.feed(":dave!d@h JOIN #tweet_1")
        harness.feed(":carol!c@h PART #tweet_1")
        harness.feed(":bob!b@h NICK robert")
        #expect(harness.core.roster.contains("Robert", in: "#TWEET_1"))
        #expect(!harness.core.roster.contains("bob", in: "#tweet_1"))
        #expect(!harness.core.roster.contains("carol", in: "#tweet_1"))
        #expect(harness.core.roster.contains("dave", in: "#tweet_1"))
        harness.feed(":dave!d@h QUIT :bye")
        #expect(!harness.core.roster.contains("dave", in: "#tweet_1"))
        #expect(harness.events() == [.joined(channel: "#tweet_1")])
    }

    @Test("Lines too long for any server are counted and reported once per take")
    func overlong() {
        var harness = Harness()
        harness.core.droppedOverlongLine()
        harness.core.droppedOverlongLine()
        #expect(harness.events() == [.overlongLines(count: 2)])
        #expect(harness.events().isEmpty)
    }
}
