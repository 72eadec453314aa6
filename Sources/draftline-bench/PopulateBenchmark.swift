import DraftKit
import Foundation
import Glibc

/// `populate`: a data directory filled with generated messages and contacts.
extension Benchmark {
    static func populate(_ arguments: [String]) throws -> Int32 {
        guard let directory = arguments.first else {
            print(usage)
            return 64
        }
        var messages = 0
        var chats = 1000
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap(Int.init), value >= 0 else {
                print("draftline-bench: \(flag) needs a whole number")
                return 64
            }
            switch flag {
            case "--messages": messages = value
            case "--chats": chats = max(1, value)
            default:
                print("draftline-bench: unknown option '\(flag)'")
                return 64
            }
        }
        let seconds = try time { try fill(directory, messages: messages, chats: chats) }
        print("populated \(directory): \(messages) messages in \(chats) chats (\(format(seconds: seconds)))")
        return 0
    }

    /// Fills a data directory: `messages` spread evenly over `chats` chats, the chats'
    /// users as contacts. Files are written without syncing each, then synced once.
    static func fill(_ directory: String, messages: Int, chats: Int) throws {
        let history = try PropertyListHistory(directory: directory)
        var generator = MessageGenerator(seed: 42)
        var contacts: [Contact] = []
        var number = 0
        for index in 0..<chats {
            let key = try GlobalKey(validating: userName(index))
            contacts.append(Contact(key: key, name: "User \(index)"))
            let count = messages / chats + (index < messages % chats ? 1 : 0)
            let batch = (0..<count).map { _ in
                number += 1
                return generator.message(chat: key.rawValue, number: number)
            }
            try history.appendAll(
                batch, to: InputTarget.privateChat(key).chatID(as: .me), durable: false, announce: false)
        }
        try ContactBook.write(contacts, directory: directory)
        sync()
    }

    static func userName(_ index: Int) -> String {
        let digits = String(index)
        return "user" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

}
