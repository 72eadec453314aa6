// The original chat-log design, as its write-up has it: every chat in one UserDefaults
// domain, under its chat ID, as an array of message dictionaries. `save()` reads the
// chat's array, appends the message's dictionary and writes the array back, then
// synchronizes; `getAllMsg(chatID:)` reads the array back as messages.
//
// usage: original-chat-log save SUITE      (JSON array of messages on standard input)
//        original-chat-log get SUITE CHATID (JSON array of messages on standard output)
//        original-chat-log raw SUITE CHATID (the chat's array as the domain holds it, every
//                                            key of each dictionary, before toChatModel;
//                                            dates as seconds since 1970)
//
// UserDefaults keeps SUITE in $XDG_CONFIG_HOME/SUITE.plist; Foundation reads that
// variable once, at start, so a caller sets it for the whole process. JSON messages use
// the model's eleven keys; numbers are reals.

import Foundation

/// The model: eleven fields, each defaulted when missing or of another type.
struct ChatModel {
    var chatID = "", messageID = "", content = "", target = "", mineHead = "", otherHead = "", type = ""
    var filePath = "", address = ""
    var latitude = 0.0, longitude = 0.0

    static let stringKeys = [
        "chatID", "messageID", "content", "target", "mineHead", "otherHead", "type", "filePath", "address",
    ]

    /// `toChatModel`.
    init(_ dictionary: [String: Any]) {
        let strings = Self.stringKeys.map { dictionary[$0] as? String ?? "" }
        (chatID, messageID, content, target, mineHead) = (strings[0], strings[1], strings[2], strings[3], strings[4])
        (otherHead, type, filePath, address) = (strings[5], strings[6], strings[7], strings[8])
        latitude = dictionary["latitude"] as? Double ?? 0
        longitude = dictionary["longitude"] as? Double ?? 0
    }

    /// `toDic`.
    var dictionary: [String: Any] {
        [
            "chatID": chatID, "messageID": messageID, "content": content, "target": target, "mineHead": mineHead,
            "otherHead": otherHead, "type": type, "filePath": filePath, "address": address, "latitude": latitude,
            "longitude": longitude,
        ]
    }
}

/// The design's store.
struct ChatLog {
    let defaults: UserDefaults

    func save(_ message: ChatModel) {
        var all = defaults.array(forKey: message.chatID) as? [[String: Any]] ?? []
        all.append(message.dictionary)
        defaults.set(all, forKey: message.chatID)
        defaults.synchronize()
    }

    func getAllMsg(chatID: String) -> [ChatModel] {
        (defaults.array(forKey: chatID) as? [[String: Any]] ?? []).map(ChatModel.init)
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let defaults = UserDefaults(suiteName: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: original-chat-log save SUITE | get SUITE CHATID\n".utf8))
    exit(64)
}
let log = ChatLog(defaults: defaults)
switch (arguments[1], arguments.count) {
case ("save", 3):
    let input = FileHandle.standardInput.readDataToEndOfFile()
    guard let list = try JSONSerialization.jsonObject(with: input) as? [[String: Any]] else {
        FileHandle.standardError.write(Data("save: standard input is not a JSON array of objects\n".utf8))
        exit(65)
    }
    for item in list { log.save(ChatModel(item)) }
case ("get", 4):
    let messages = log.getAllMsg(chatID: arguments[3]).map(\.dictionary)
    FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: messages, options: [.sortedKeys]))
case ("raw", 4):
    // What the domain holds under the chat ID, untouched by the model's conversion.
    let raw = (defaults.array(forKey: arguments[3]) ?? []).map { item -> Any in
        guard let dictionary = item as? [String: Any] else { return "not a dictionary: \(item)" }
        return dictionary.mapValues { value -> Any in
            (value as? Date).map { ["date": $0.timeIntervalSince1970] } ?? value
        }
    }
    FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: raw, options: [.sortedKeys]))
default:
    FileHandle.standardError.write(Data("usage: original-chat-log save SUITE | get SUITE CHATID\n".utf8))
    exit(64)
}
