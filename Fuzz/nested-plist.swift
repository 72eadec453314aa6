// libFuzzer entry point: FuzzProperties.nestedPropertyList on a scratch data directory (issue 19).
// Built by `make fuzz`.
import DraftKitFuzzing
import Foundation

nonisolated(unsafe) private var scratch: String = {
    var template = Array((NSTemporaryDirectory() + "/draftline-fuzz-nested-plist-XXXXXX").utf8CString)
    return String(cString: mkdtemp(&template)!)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNestedPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.nestedPropertyList(
        Array(UnsafeBufferPointer(start: data, count: size)), scratch: scratch)
    {
        fatalError(failure)
    }
    return 0
}
