// skillhost-worker — runs skill code outside the host process.
//
//   skillhost-worker manifest FILE...
//
// For each FILE, in order: dlopen it, look up the entry symbol, call it, and write one line of JSON
// describing what the skill declares to file descriptor 3 (the host's result pipe). Standard output
// and error are left to the skill's own noise; the host points them elsewhere. The host runs this
// with a deadline: a skill whose initializer crashes or hangs kills or stalls only this process, and
// the host knows which file did it because results arrive in order.
//
// This executable does not import Foundation: it starts fast and loads as little as possible next to
// the skills it examines.
import Glibc
import SkillABI

let resultFD: Int32 = 3

func emit(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { buf in
        var off = 0
        while off < buf.count {
            let n = write(resultFD, buf.baseAddress! + off, buf.count - off)
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                exit(3)  // the host is gone
            }
            off += n
        }
    }
}

/// `s` as a JSON string literal. Runs that need no escaping are copied whole (schemas are full of quotes).
func quote(_ s: String) -> String {
    var out: [UInt8] = [0x22]
    var s = s
    s.withUTF8 { u in
        out.reserveCapacity(u.count + u.count / 8 + 2)
        var start = 0
        for i in 0..<u.count {
            let c = u[i]
            guard c < 0x20 || c == 0x22 || c == 0x5c else { continue }
            if i > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<i])) }
            switch c {
            case 0x22: out += [0x5c, 0x22]
            case 0x5c: out += [0x5c, 0x5c]
            case 0x0a: out += [0x5c, 0x6e]
            case 0x0d: out += [0x5c, 0x72]
            case 0x09: out += [0x5c, 0x74]
            default:
                let hex = Array("0123456789abcdef".utf8)
                out += [0x5c, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]]
            }
            start = i + 1
        }
        if start < u.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<u.count])) }
    }
    out.append(0x22)
    return String(decoding: out, as: UTF8.self)
}

/// A C string field as JSON: null, or the string. Invalid UTF-8 is reported as an object so the
/// host can name the field instead of silently repairing it.
func field(_ p: UnsafePointer<CChar>?) -> String {
    guard let p else { return "null" }
    if let s = String(validatingCString: p) { return quote(s) }
    return "{\"invalidUTF8\":true}"
}

/// True when the struct the skill compiled is long enough to contain the field ending at `end`.
func has(_ size: UInt32, _ end: Int) -> Bool { Int(size) >= end }

func describeIntent(_ ip: UnsafePointer<skh_intent>) -> String {
    let size = ip.pointee.struct_size
    let i = ip.pointee
    var parts = ["\"structSize\":\(size)"]
    func add<T>(_ name: String, _ kp: KeyPath<skh_intent, T>, _ render: (T) -> String) {
        let end = MemoryLayout<skh_intent>.offset(of: kp)! + MemoryLayout<T>.size
        if has(size, end) { parts.append("\(quote(name)):\(render(i[keyPath: kp]))") }
    }
    add("flags", \.flags) { String($0) }
    add("name", \.name) { field($0) }
    add("description", \.description) { field($0) }
    add("inputSchema", \.input_schema) { field($0) }
    add("outputSchema", \.output_schema) { field($0) }
    add("surfaces", \.surfaces) { String($0) }
    add("priority", \.priority) { String($0) }
    add("confidence", \.confidence) { $0.isFinite ? "\($0)" : "null" }
    add("keywords", \.keywords) { field($0) }
    add("examples", \.examples) { field($0) }
    return "{" + parts.joined(separator: ",") + "}"
}

func describe(_ sp: UnsafePointer<skh_skill>) -> String {
    let s = sp.pointee
    var parts = ["\"abiMajor\":\(s.abi_major)", "\"abiMinor\":\(s.abi_minor)", "\"structSize\":\(s.struct_size)"]
    guard s.abi_major == UInt32(SKH_ABI_VERSION_MAJOR) else {
        // Another major: read nothing beyond the version (its layout may differ).
        return "{" + parts.joined(separator: ",") + "}"
    }
    let size = s.struct_size
    func add<T>(_ name: String, _ kp: KeyPath<skh_skill, T>, _ render: (T) -> String) {
        let end = MemoryLayout<skh_skill>.offset(of: kp)! + MemoryLayout<T>.size
        if has(size, end) { parts.append("\(quote(name)):\(render(s[keyPath: kp]))") }
    }
    add("flags", \.flags) { String($0) }
    add("id", \.id) { field($0) }
    add("name", \.name) { field($0) }
    add("version", \.version) { field($0) }
    add("category", \.category) { field($0) }
    add("vendor", \.vendor) { field($0) }
    add("description", \.description) { field($0) }
    add("toolchain", \.toolchain) { field($0) }
    add("hasInit", \.`init`) { $0 == nil ? "false" : "true" }
    add("hasInvoke", \.invoke) { $0 == nil ? "false" : "true" }
    add("hasHealth", \.health) { $0 == nil ? "false" : "true" }
    add("hasRelease", \.release) { $0 == nil ? "false" : "true" }
    let countEnd = MemoryLayout<skh_skill>.offset(of: \.intents)! + MemoryLayout<UnsafePointer<skh_intent>?>.size
    if has(size, countEnd) {
        parts.append("\"intentCount\":\(s.intent_count)")
        if let intents = s.intents, s.intent_count <= 1024 {
            // Step by the skill's own struct size (the array may come from a newer minor).
            let stride = max(Int(intents.pointee.struct_size), 8)
            let base = UnsafeRawPointer(intents)
            let list = (0..<Int(s.intent_count)).map { k in
                describeIntent(base.advanced(by: k * stride).assumingMemoryBound(to: skh_intent.self))
            }
            parts.append("\"intents\":[" + list.joined(separator: ",") + "]")
        }
    }
    return "{" + parts.joined(separator: ",") + "}"
}

func manifest(of path: String) -> String {
    let head = "{\"file\":\(quote(path)),"
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
        let err = dlerror().map { String(cString: $0) } ?? "unknown error"
        return head + "\"status\":\"dlopen_failed\",\"error\":\(quote(err))}"
    }
    guard let sym = dlsym(handle, SKH_ENTRY_SYMBOL) else {
        return head + "\"status\":\"no_entry\"}"
    }
    let entry = unsafeBitCast(sym, to: skh_entry_fn.self)
    guard let skill = entry() else {
        return head + "\"status\":\"entry_null\"}"
    }
    return head + "\"status\":\"ok\",\"skill\":\(describe(skill))}"
}

let args = CommandLine.arguments
guard args.count >= 2, args[1] == "manifest" else {
    let msg = "usage: skillhost-worker manifest FILE...\n(started by skillhost; not meant to be run by hand)\n"
    _ = msg.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
for path in args.dropFirst(2) {
    emit(manifest(of: path))
}
exit(0)
