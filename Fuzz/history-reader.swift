// libFuzzer entry point: the history-file reader, on a scratch data directory. Built by
// `make fuzz`.
import DraftKitFuzzing
import Foundation

nonisolated(unsafe) private var scratch: String = {
    var template = Array((NSTemporaryDirectory() + "/draftline-fuzz-XXXXXX").utf8CString)
    return String(cString: mkdtemp(&template)!)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistoryReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.historyReader(
        Array(UnsafeBufferPointer(start: data, count: size)), scratch: scratch)
    {
        fatalError(failure)
    }
    return 0
}
