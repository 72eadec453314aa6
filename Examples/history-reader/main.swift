// Prints a chat's history straight from draftline's property-list files:
//
//     swift run history-reader alice [--data-dir DIR]
//
// Each chat is a folder of numbered segments, each a property list holding an array of
// message dictionaries. Reading them needs nothing but Foundation.
import DraftKit
import DraftlineREPL
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var options = Options()
if let flag = arguments.firstIndex(of: "--data-dir"), flag + 1 < arguments.count {
    options.dataDirectory = arguments[flag + 1]
    arguments.removeSubrange(flag...flag + 1)
}
guard arguments.count == 1, let chat = ChatID(arguments[0]) else {
    print("usage: history-reader <chat ID, such as alice or tweet_123> [--data-dir DIR]")
    exit(64)
}
let directory = try options.resolvedDataDirectory(environment: ProcessInfo.processInfo.environment) + "/chats/\(chat)"
let segments = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    .filter { $0.hasSuffix(".plist") }.sorted()
for segment in segments {
    let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + segment))
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
    for dictionary in plist as? [[String: Any]] ?? [] {
        let message = Message(dictionary: dictionary)  // the model's toChatModel, missing keys defaulted
        print("\(segment)  \(message.messageID)  [\(message.type)]  \(TerminalText.visible(message.content))")
    }
}
print("\(segments.count) segment(s) in \(directory)")
