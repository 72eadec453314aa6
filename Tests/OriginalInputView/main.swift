// The original input view's draft methods (Coding-iOS, UIMessageInputView), written again
// in Swift from what they do, with the DebugLog lines SPEC §2 names: the oracle that
// draftline's `--trace-format debuglog` is compared with, line for line.
//
// Two process-wide dictionaries hold the unsent text and the unsent media of every input
// target, under a key built from the target (`inputKey`). Entering a target (`setToUser:`)
// looks the draft up (`inputStr`, logged), puts it in the text view and takes the media
// list (`inputMedia`); leaving (the view going down) saves both (`saveInputStr`, logged,
// and `saveInputMedia`), with empty text too; a send (`sendTextStr`) with something to send
// (text that is not blank, or media) deletes both first (`deleteInputData`, logged), and
// then clears the view; Enter on a blank view sends nothing and deletes nothing, and clears
// the view; adding media saves the media list. Killing the app calls none of them.
//
// usage: original-input-view < actions
//
// One action a line, a JSON object:
//   {"do":"enter","type":"privateMessage|tweet|topic|task","user":"alice","id":5}
//   {"do":"media","name":"photo.png"}   a file added to the media list
//   {"do":"leave","typed":"..."}        text typed at the end of the view's, then the view
//                                       goes down
//   {"do":"send","typed":"..."}         text typed at the end of the view's, then Enter
//   {"do":"dump"}                       prints `drafts: ` and the dictionaries as JSON, as
//                                       they are once the view on screen goes down (its
//                                       text and media saved; not logged)
//   {"do":"restart","label":"3"}        the app is killed and started again; prints `--- 3`
// Each DebugLog line is printed on standard output as it is logged.

import Foundation

/// The view's content type.
enum ContentType: String {
    case privateMessage, tweet, topic, task
}

/// The input view: its target, its text view, its media list.
struct InputView {
    var contentType = ContentType.privateMessage
    var toUser: String?
    var commentOfId: Int?
    var text = ""
    var mediaList: [String] = []
}

/// The two dictionaries, process-wide in the original (`_inputStrDict`, `_inputMediaDict`).
nonisolated(unsafe) var inputStrDict: [String: String] = [:]
nonisolated(unsafe) var inputMediaDict: [String: [String]] = [:]

func debugLog(_ line: String) { print(line) }

extension InputView {
    /// `inputKey`: `privateMessage_<global_key>`, or for a comment on something with an id,
    /// `<kind>_<id>_<global_key or empty>`; nil otherwise.
    var inputKey: String? {
        if contentType == .privateMessage { return "privateMessage_\(toUser ?? "(null)")" }
        guard let commentOfId else { return nil }
        let user = (toUser?.isEmpty == false) ? toUser ?? "" : ""
        return "\(contentType.rawValue)_\(commentOfId)_\(user)"
    }

    /// `inputStr`: the draft text for the key, logged on every lookup.
    func inputStr() -> String? {
        let found = inputKey.flatMap { inputStrDict[$0] }
        debugLog("inputStr_get:\(found ?? "(null)")")
        return found
    }

    /// `deleteInputData`: both entries removed, logged first.
    func deleteInputData() {
        guard let key = inputKey else { return }
        debugLog("inputKey_delegate:\(key)")
        inputStrDict[key] = nil
        inputMediaDict[key] = nil
    }

    /// `saveInputStr`: the text view's text kept, or the entry removed when it is empty;
    /// logged on every save.
    func saveInputStr() {
        guard let key = inputKey, !key.isEmpty else { return }
        debugLog("inputKey_save:\(key)")
        if !text.isEmpty {
            inputStrDict[key] = text
        } else {
            inputStrDict[key] = nil
        }
    }

    /// `saveInputMedia`: the media list kept, or the entry removed when it is empty.
    func saveInputMedia() {
        guard let key = inputKey, !key.isEmpty else { return }
        if !mediaList.isEmpty {
            inputMediaDict[key] = mediaList
        } else {
            inputMediaDict[key] = nil
        }
    }

    /// `inputMedia`: the media list for the key.
    func inputMedia() -> [String]? {
        inputKey.flatMap { inputMediaDict[$0] }
    }

    /// `setToUser:` (with the content type and id set before it): the draft into the text
    /// view, the media list taken, and saved again (`mediaListChenged`).
    mutating func enter(type: ContentType, user: String?, id: Int?) {
        contentType = type
        commentOfId = id
        toUser = user
        text = inputStr() ?? ""
        mediaList = inputMedia() ?? []
        saveInputMedia()
    }

    /// The view going down: `saveInputStr`, `saveInputMedia`.
    func leave() {
        saveInputStr()
        saveInputMedia()
    }

    /// `sendTextStr`: with something to send (text that is not blank, or media), the draft
    /// deleted first and the message sent; the view cleared either way. A blank Enter
    /// leaves the dictionaries to the next save.
    mutating func send() {
        let blank = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        if !blank || !mediaList.isEmpty {
            deleteInputData()
            mediaList.removeAll()
        }
        text = ""
    }

    /// The dictionaries as they are once this view goes down (`saveInputStr` and
    /// `saveInputMedia` without their log line): what the app would find on coming back.
    func saved() -> (text: [String: String], media: [String: [String]]) {
        var text = inputStrDict
        var media = inputMediaDict
        if let key = inputKey, !key.isEmpty {
            text[key] = self.text.isEmpty ? nil : self.text
            media[key] = mediaList.isEmpty ? nil : mediaList
        }
        return (text, media)
    }
}

var view = InputView()
while let line = readLine(strippingNewline: true) {
    guard let action = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let verb = action["do"] as? String
    else {
        FileHandle.standardError.write(Data("not an action: \(line)\n".utf8))
        exit(65)
    }
    switch verb {
    case "enter":
        guard let type = (action["type"] as? String).flatMap(ContentType.init(rawValue:)) else { exit(65) }
        view.enter(type: type, user: action["user"] as? String, id: action["id"] as? Int)
    case "media":
        view.mediaList.append(action["name"] as? String ?? "")
        view.saveInputMedia()
    case "leave":
        view.text += action["typed"] as? String ?? ""
        view.leave()
    case "send":
        view.text += action["typed"] as? String ?? ""
        view.send()
    case "dump":
        let saved = view.saved()
        let dump: [String: Any] = ["text": saved.text, "media": saved.media.mapValues(\.count)]
        let data = try JSONSerialization.data(withJSONObject: dump, options: [.sortedKeys])
        print("drafts: " + String(decoding: data, as: UTF8.self))
    case "restart":
        inputStrDict = [:]
        inputMediaDict = [:]
        view = InputView()
        print("--- \(action["label"] as? String ?? "")")
    default:
        FileHandle.standardError.write(Data("unknown action: \(verb)\n".utf8))
        exit(65)
    }
}
