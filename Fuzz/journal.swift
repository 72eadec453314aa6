// libFuzzer entry point: the journal and the chat list's index, fed with any bytes.
// Built by `make fuzz`.
import DraftKitFuzzing
import Foundation

nonisolated(unsafe) private var scratch: String = {
    var template = Array((NSTemporaryDirectory() + "/draftline-fuzz-journal-XXXXXX").utf8CString)
    return String(cString: mkdtemp(&template)!)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.liveFiles(Array(UnsafeBufferPointer(start: data, count: size)), scratch: scratch) {
        fatalError(failure)
    }
    return 0
}
