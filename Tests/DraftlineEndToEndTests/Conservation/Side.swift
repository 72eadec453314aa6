import DraftlineTestSupport
import Foundation
import ReferenceModel

/// One process the conservation test plays a sequence on, a terminal or a pipe: its model,
/// its own data directory, its own other side (`bob`, who sends the arrivals) and its trace.
class Side {
    let name: String
    let fixture: Fixture
    let bob: PipedProcess
    var model: ReferenceModel
    let attachment: String
    var traceFile: String { fixture.root + "/trace.jsonl" }
    private var traceRead = 0
    /// Every message the trace says was sent, in order.
    var sent: [ReferenceModel.Message] = []
    var arrivals = 0

    init(name: String, onPipe: Bool, vi: Bool) throws {
        self.name = name
        fixture = try Fixture()
        attachment = fixture.root + "/photo.png"
        _ = FileManager.default.createFile(atPath: attachment, contents: Data([0x89, 0x50]))
        model = ReferenceModel(onPipe: onPipe, vi: vi, attachable: [attachment])
        bob = try fixture.startPiped(["--as", "bob"])
        try bob.write("/open me\n")
        try bob.waitFor("── chat with me ──")
    }

    /// The other side sends a message; it arrives above the line.
    func arrive() throws {
        arrivals += 1
        try bob.write("arrival \(arrivals)\n")
    }

    /// Reads what was sent since the last look (the trace file, one JSON object a line).
    func readSent() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: traceFile))
        guard data.count > traceRead else { return }
        let fresh = data[traceRead...]
        guard let end = fresh.lastIndex(of: 0x0A) else { return }
        traceRead = end + 1
        for row in fresh[..<end].split(separator: 0x0A) {
            guard let object = try JSONSerialization.jsonObject(with: Data(row)) as? [String: Any],
                object["event"] as? String == "sent"
            else { continue }
            sent.append(
                ReferenceModel.Message(
                    chat: object["chat"] as? String ?? "", type: object["type"] as? String ?? "",
                    text: object["text"] as? String ?? ""))
        }
    }

    /// Where the model says the line is, as ``Observation/place`` names it.
    var expectedPlace: String {
        switch model.prompt {
        case .name: "name"
        case .command: "command"
        case .none: model.screen.description
        }
    }

    /// What differs between the model and what draftline showed (and sent); settles the
    /// model's optional undo entries by what was seen.
    func differences(_ seen: Observation) -> [String] {
        var found: [String] = []
        if seen.place != expectedPlace { found.append("place: model \(expectedPlace), seen \(seen.place)") }
        if sent != model.sent {
            let common = zip(sent, model.sent).prefix { $0 == $1 }.count
            found.append(
                "sent: model \(model.sent.dropFirst(common).map(\.description)), seen \(sent.dropFirst(common).map(\.description))"
            )
        }
        let drafts = model.drafts.sorted { $0.key < $1.key }.map { key, draft in
            Observation.Draft(key: key, text: Observation.shown(draft.text), cursor: draft.cursor, media: draft.media)
        }
        if drafts != seen.drafts {
            found.append("drafts: model \(drafts), seen \(seen.drafts)")
        }
        // The undo stack, optional entries matched where they are seen.
        var present: [String?] = []
        var index = 0
        var same = true
        let entries = model.undo
        for (place, entry) in entries.enumerated() {
            let shown = Observation.Entry(origin: entry.origin ?? "(line)", text: Observation.shown(entry.text))
            var here = index < seen.undo.count && seen.undo[index] == shown
            if entry.anyText, index < seen.undo.count {
                // Any text, unless what is seen there is the next entry the model is sure of.
                let next = entries[(place + 1)...].first { !$0.optional }.map {
                    Observation.Entry(origin: $0.origin ?? "(line)", text: Observation.shown($0.text))
                }
                here = seen.undo[index] != next
            }
            if entry.optional {
                present.append(here ? Observation.unshown(seen.undo[index].text) : nil)
                if here { index += 1 }
            } else if here {
                index += 1
            } else {
                same = false
            }
        }
        if same && index == seen.undo.count {
            model.settle(optionalEntries: present)
        } else if !model.adopt(
            undoOrder: seen.undo.map { ($0.origin == "(line)" ? nil : $0.origin, Observation.unshown($0.text)) })
        {
            // (Below the top entry the order is draftline's: the SPEC names only the top.)
            found.append("undo: model \(model.undo), seen \(seen.undo)")
        }
        if let line = seen.line {
            let shown = Observation.shown(model.line.text)
            if line != shown || seen.cursor != model.line.cursor {
                found.append(
                    "line: model \(shown.debugDescription)@\(model.line.cursor), seen \(line.debugDescription)@\(seen.cursor)"
                )
            }
        }
        return found
    }
}
