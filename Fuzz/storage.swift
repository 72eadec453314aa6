// libFuzzer entry point: the storage layer, fed with file-system states (file kinds,
// sizes, names). Built by `make fuzz`.
import DraftKitFuzzing
import Foundation

nonisolated(unsafe) private var scratch: String = {
    var template = Array((NSTemporaryDirectory() + "/draftline-fuzz-storage-XXXXXX").utf8CString)
    return String(cString: mkdtemp(&template)!)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStorage(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.storage(Array(UnsafeBufferPointer(start: data, count: size)), scratch: scratch) {
        fatalError(failure)
    }
    return 0
}
