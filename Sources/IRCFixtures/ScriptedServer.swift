import Dispatch
import Foundation
import Glibc
import Synchronization

/// A server written by a test, that says what no real server should (floods, endless
/// lines, invalid UTF-8, NUL bytes, formatting and escape codes): one client on a free
/// loopback port, welcomed as `alice`, then `script` written from a thread of its own.
/// (Its writes block while the client does not read.)
public final class ScriptedServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let done = DispatchSemaphore(value: 0)
    private let sentBytes = Counter()
    /// How many bytes of the script the kernel has taken so far.
    public var sent: Int { sentBytes.value.withLock { $0 } }

    /// A count the server's thread writes and the test reads.
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    public init(script: @escaping @Sendable () -> [UInt8]) throws {
        port = try LoopbackPort.free()
        let listener = try LoopbackPort.listener(on: port)
        self.listener = listener
        let done = self.done
        let sentBytes = self.sentBytes
        Thread {
            let client = accept(listener, nil, nil)
            defer {
                close(client)
                done.signal()
            }
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var heard = ""
            while !heard.contains("USER ") {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                heard += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            let bytes = Array(":fake.test 001 alice :Welcome alice!alice@127.0.0.1\r\n".utf8) + script()
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes {
                    send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return }
                sent += count
                sentBytes.value.withLock { $0 = sent }
            }
            // Stay open until the client is done reading.
            while buffer.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
        }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
