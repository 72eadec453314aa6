import Foundation
import Glibc
import ProgramDriver

/// An IRC server for a test: InspIRCd 3 or ngircd, as a process of its own on a free
/// loopback port, in a scratch folder of its own, from the configs in Tests/Fixtures/irc.
/// It is stopped by its process ID (``stop()``, and in `deinit`), and can be restarted on
/// the same port, linked to another, or offer TLS with a certificate made for 127.0.0.1.
public final class IRCServer {
    /// Which server program.
    public enum Kind: String, Sendable, CaseIterable {
        /// InspIRCd 3: IRCv3 tags, echo-message, server-time, msgid.
        case inspircd
        /// ngircd: no capabilities but multi-prefix.
        case ngircd
    }

    /// Flood limits: relaxed for fast tests, or the server's defaults.
    public enum Flood: Sendable {
        case relaxed
        case defaults
    }

    public let kind: Kind
    /// The client port.
    public private(set) var port: Int
    /// The TLS client port, when TLS is on (ngircd only).
    public private(set) var tlsPort: Int?
    /// The server's name (`a.test`).
    public let name: String
    /// The scratch folder: config, log, certificate.
    public let directory: String
    /// The CA file a client must trust for TLS (the self-signed certificate itself).
    public var certificate: String { directory + "/cert.pem" }
    public private(set) var process: ServerProcess?
    private let configuration: String

    /// The configs' folder (Tests/Fixtures/irc), found from this file's place.
    public static let fixtures: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Tests/Fixtures/irc").path
    }()

    /// Whether the program is installed.
    public static func isInstalled(_ kind: Kind) -> Bool {
        FileManager.default.isExecutableFile(atPath: executable(kind))
    }

    static func executable(_ kind: Kind) -> String { "/usr/sbin/\(kind.rawValue)" }

    /// Starts a server and waits until it listens.
    public convenience init(_ kind: Kind, name: String? = nil, flood: Flood = .relaxed, tls: Bool = false) throws {
        try self.init(kind, name: name ?? "\(kind == .inspircd ? "i" : "n")a.test", flood: flood, tls: tls, link: nil)
    }

    /// Where another server links: its name, its link port and who dials.
    struct Link {
        var peerName: String
        var peerPort: Int
        var ownServerPort: Int?
        var dials: Bool
    }

    init(_ kind: Kind, name: String, flood: Flood, tls: Bool, link: Link?, port: Int? = nil) throws {
        precondition(!tls || kind == .ngircd, "TLS is offered by the ngircd fixture")
        self.kind = kind
        self.name = name
        self.port = try port ?? LoopbackPort.free()
        tlsPort = tls ? try LoopbackPort.free() : nil
        var template = Array((NSTemporaryDirectory() + "/draftline-irc-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PseudoTerminal.Failure(description: "mkdtemp failed") }
        directory = String(cString: made)
        // ngircd switches to `nobody` after binding: its folder must be writable by it.
        chmod(directory, 0o777)
        try FileManager.default.createDirectory(atPath: directory + "/conf.d", withIntermediateDirectories: true)
        if tls { try Self.makeCertificate(in: directory) }
        configuration = directory + "/server.conf"
        // A free port can be taken before the server binds it: a server that ends at start
        // or does not listen gets fresh ports, three times (not a pair's, whose ports are in
        // each other's configs).
        for attempt in 1...3 {
            let text = try Self.configurationText(
                kind, name: name, flood: flood, link: link, port: self.port, tlsPort: tlsPort, directory: directory)
            try text.write(toFile: configuration, atomically: true, encoding: .utf8)
            chmod(configuration, 0o644)
            do {
                try start()
                return
            } catch is PseudoTerminal.Failure where port == nil && attempt < 3 {
                stop()
                self.port = try LoopbackPort.free()
                tlsPort = tls ? try LoopbackPort.free() : nil
            }
        }
    }

    /// The config for one start, from Tests/Fixtures/irc.
    private static func configurationText(
        _ kind: Kind, name: String, flood: Flood, link: Link?, port: Int, tlsPort: Int?, directory: String
    ) throws -> String {
        var text = try String(contentsOfFile: Self.fixtures + "/\(kind.rawValue).conf.in", encoding: .utf8)
        let substitutions: [String: String]
        switch kind {
        case .inspircd:
            let flooding =
                flood == .relaxed
                ? #"threshold="100000" commandrate="100000000" fakelag="no" recvq="65536" softsendq="65536" hardsendq="1M""#
                : #"threshold="10" commandrate="1000" fakelag="yes" recvq="8192" softsendq="8192" hardsendq="1M""#
            var linking = ""
            if let link {
                linking = """
                    <module name="spanningtree">
                    <bind address="127.0.0.1" port="\(link.ownServerPort!)" type="servers">
                    <link name="\(link.peerName)" ipaddr="127.0.0.1" port="\(link.peerPort)" allowmask="127.0.0.0/8" sendpass="linkpw" recvpass="linkpw" timeout="5s">
                    """
                if link.dials { linking += "\n<autoconnect period=\"1s\" server=\"\(link.peerName)\">" }
            }
            substitutions = ["@CLASS@": flooding, "@LINK@": linking]
        case .ngircd:
            var sections = ""
            if let tlsPort {
                sections +=
                    "[SSL]\n\tCertFile = \(directory)/cert.pem\n\tKeyFile = \(directory)/key.pem\n\tPorts = \(tlsPort)\n"
            }
            if let link {
                // The dialling side names the other's client port; passwords cross.
                let (mine, theirs) = link.dials ? ("pwAtoB", "pwBtoA") : ("pwBtoA", "pwAtoB")
                sections += "[Server]\n\tName = \(link.peerName)\n\tMyPassword = \(mine)\n\tPeerPassword = \(theirs)\n"
                if link.dials { sections += "\tHost = 127.0.0.1\n\tPort = \(link.peerPort)\n" }
            }
            substitutions = ["@LIMITS@": flood == .relaxed ? "\tMaxPenaltyTime = 0" : "", "@SECTIONS@": sections]
        }
        for (key, value) in substitutions.merging(
            ["@PORT@": String(port), "@DIR@": directory, "@NAME@": name], uniquingKeysWith: { $1 })
        {
            text = text.replacingOccurrences(of: key, with: value)
        }
        return text
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the program and waits (at most 10 s) until it listens on its port.
    public func start() throws {
        let arguments: [String]
        switch kind {
        case .inspircd:
            // In its folder, without core files (with TLS it dumps core on SIGTERM).
            arguments =
                [
                    "/usr/bin/env", "--chdir=\(directory)", "/usr/bin/prlimit", "--core=0:0", "--",
                    Self.executable(kind), "--nofork", "--config", configuration,
                ]
                + (geteuid() == 0 ? ["--runasroot"] : [])
        case .ngircd:
            arguments = [Self.executable(kind), "-n", "-f", configuration]
        }
        let process = try ServerProcess(arguments, logPath: directory + "/stdout.log")
        self.process = process
        let deadline = PseudoTerminal.now() + 10
        // Ready when this process holds the port: another listener there means this one
        // could not bind it (InspIRCd runs on without its port), and a client would reach
        // someone else's server.
        for port in [port] + (tlsPort.map { [$0] } ?? []) {
            while true {
                let listener = LoopbackPort.listener(on: port, owner: process.pid)
                if listener == .process { break }
                if let ended = process.termination {
                    throw PseudoTerminal.Failure(description: "\(kind) ended at start (\(ended)): \(process.logTail)")
                }
                if listener == .another {
                    throw PseudoTerminal.Failure(
                        description: "\(kind): port \(port) is held by another process: \(process.logTail)")
                }
                guard PseudoTerminal.now() < deadline else {
                    throw PseudoTerminal.Failure(
                        description: "\(kind) did not listen on \(port) within 10 s: \(process.logTail) \(ownLog)")
                }
                usleep(5_000)
            }
        }
    }

    /// The end of the server's own log (InspIRCd writes one beside its config).
    private var ownLog: String {
        let text = (try? String(contentsOfFile: "\(directory)/\(name).log", encoding: .utf8)) ?? ""
        return String(text.suffix(1500))
    }

    /// Stops the program by its process ID (SIGTERM: it sends ERROR, then closes) and
    /// waits for its end.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) -> PseudoTerminal.Termination? {
        defer { process = nil }
        return process?.stop(signal: signal)
    }

    /// Stops and starts again on the same port.
    public func restart(signal: Int32 = SIGTERM) throws {
        stop(signal: signal)
        try start()
    }

    /// Two servers of one kind linked into one network: `a` dials `b`. Returns when the link
    /// is up (a client on `a` sees `b` in LINKS), within `timeout` seconds.
    public static func linkedPair(_ kind: Kind, timeout: Double = 20) throws -> (a: IRCServer, b: IRCServer) {
        let prefix = kind == .inspircd ? "i" : "n"
        let (nameA, nameB) = ("\(prefix)linka.test", "\(prefix)linkb.test")
        let portA = try LoopbackPort.free()
        let portB = try LoopbackPort.free()
        // InspIRCd links on server ports of their own; ngircd dials the peer's client port.
        let linkPorts = try kind == .inspircd ? (a: LoopbackPort.free(), b: LoopbackPort.free()) : nil
        let b = try IRCServer(
            kind, name: nameB, flood: .relaxed, tls: false,
            link: Link(peerName: nameA, peerPort: linkPorts?.a ?? portA, ownServerPort: linkPorts?.b, dials: false),
            port: portB)
        let a = try IRCServer(
            kind, name: nameA, flood: .relaxed, tls: false,
            link: Link(peerName: nameB, peerPort: linkPorts?.b ?? portB, ownServerPort: linkPorts?.a, dials: true),
            port: portA)
        let watcher = try RawIRCPeer(port: a.port, nick: "linkwatch")
        let deadline = PseudoTerminal.now() + timeout
        while true {
            try watcher.send("LINKS")
            let lines = try watcher.collect(until: { $0.contains(" 365 ") }, timeout: 5)
            if lines.contains(where: { $0.contains(" 364 ") && $0.contains(nameB) }) { break }
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(description: "\(kind) servers did not link within \(timeout) s")
            }
            usleep(200_000)
        }
        try watcher.send("QUIT")
        return (a, b)
    }

    /// A self-signed certificate for 127.0.0.1 (an EC key, made by the `openssl` command).
    static func makeCertificate(in directory: String) throws {
        let run = try ProgramRun.run(
            "/usr/bin/openssl",
            arguments: [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory + "/key.pem",
                "-out", directory + "/cert.pem",
            ], environment: ["PATH": "/usr/bin:/bin"], timeout: 30)
        guard run.status == 0 else {
            throw PseudoTerminal.Failure(
                description: "openssl req failed: \(String(decoding: run.error, as: UTF8.self))")
        }
        chmod(directory + "/key.pem", 0o644)
    }
}
