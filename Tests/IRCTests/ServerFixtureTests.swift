import Glibc
import IRCFixtures
import ProgramDriver
import Testing

/// The test servers' fixture: a server is ready only when its own process holds its port,
/// so that a client never reaches another test's server (or another session's).
@Suite("The IRC server fixture", .serialized)
struct ServerFixtureTests {
    @Test("Who listens on a port: nobody, this process, or another")
    func listenerOfAPort() throws {
        let port = try LoopbackPort.free()
        #expect(LoopbackPort.listener(on: port, owner: getpid()) == .nobody)
        let socket = try LoopbackPort.listener(on: port)
        defer { close(socket) }
        #expect(LoopbackPort.listener(on: port, owner: getpid()) == .process)
        #expect(LoopbackPort.listener(on: port, owner: getppid()) == .another)
    }

    @Test(
        "A server that cannot bind its port, which another process holds, is not taken as started",
        arguments: IRCServer.Kind.allCases)
    func aPortHeldByAnotherIsNoStart(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        server.stop()
        let socket = try LoopbackPort.listener(on: server.port)
        defer { close(socket) }
        #expect(throws: PseudoTerminal.Failure.self) { try server.start() }
    }
}
