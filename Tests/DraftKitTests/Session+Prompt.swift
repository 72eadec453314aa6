import DraftKit
import DraftlineREPL

extension Session {
    /// The prompt a front end shows for this session (the presenter's words).
    var prompt: String { Presenter().prompt(on: screen, answering: question) }
}
