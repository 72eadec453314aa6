import DraftKit
import Foundation
import Testing

@Suite("The message model")
struct MessageTests {
    let full = Message(
        chatID: "alice", messageID: "1-a", content: "hi 你好 😀\t\u{1b}[2J", target: "alice", mineHead: "me",
        otherHead: "alice", type: "location", filePath: "/f", address: "Main St", latitude: 52.5, longitude: -13.25)

    @Test func dictionaryRoundTripKeepsEveryField() {
        #expect(Message(dictionary: full.dictionary) == full)
        let model: Set = [
            "chatID", "messageID", "content", "target", "mineHead", "otherHead", "type", "filePath", "address",
            "latitude", "longitude",
        ]
        #expect(Set(full.dictionary.keys) == model.union(["sentAt", "sender"]))
    }

    @Test func missingKeysTakeTheSeedDefaults() {
        let message = Message(dictionary: ["content": "only this"])
        #expect(message.content == "only this")
        #expect(message.chatID == "")
        #expect(message.type == "")
        #expect(message.latitude == 0.0)
        #expect(message.longitude == 0.0)
    }

    @Test func decoderDefaultsMissingKeysAndAcceptsIntegerCoordinates() throws {
        let plist: [[String: Any]] = [["chatID": "bob", "latitude": 40, "content": "x"]]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let decoded = try PropertyListDecoder().decode([Message].self, from: data)
        #expect(decoded == [Message(chatID: "bob", content: "x", type: "", latitude: 40)])
    }

    @Test func encoderWritesTheElevenKeysAndTheSendTime() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let data = try encoder.encode([full])
        let list = try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]]
        #expect(Set(list?.first?.keys ?? [:].keys) == Set(full.dictionary.keys))
        #expect(Message(dictionary: list![0]) == full)
    }
}
