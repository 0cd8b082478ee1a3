// `skillhost-scan -` — see main.swift. Each descriptor (which the host opened, checked and
// handed over on fd 4) is checked against the identity the host recorded and loaded (SkillLoading:
// dlopen of /proc/self/fd/FD, never the path), which runs the file's static initializers; each loaded
// file's entry is called and one line of JSON describing what the skill declares is written to file
// descriptor 3 (the host's result pipe). Lines are built as bytes straight from the skill's C strings.
// Descriptors are never closed: glibc would match a later /proc/self/fd/N against the image first
// loaded under that name (see SkillImage).
//
// When each entry is called: loading an image that contains Swift registers its protocol conformances,
// and the Swift runtime then forgets every conformance lookup it had cached. A Swift skill's entry makes
// such lookups (generic types built from mangled names), so loading and describing one Swift file after
// the other made every entry rescan the conformances of every image loaded so far — quadratic in the
// number of files (200 Swift copies: 300 ms of CPU, 75 of it in the conformance scan). So the entries of
// images that carry the Swift runtime are called after every file is loaded (pass two), which scans
// once. An image without Swift (a C skill) neither registers conformances nor looks any up: its entry is
// called right after its load, so its answer reaches the host while the next files load and the host
// validates it in parallel (200 C copies: the host's validation no longer waits for the last load).
//
// Which file and step a crash or a hang belongs to stays exact: after loading an image with Swift the
// process writes `{"file":…,"status":"loaded"}`; before calling the entry of an image without Swift,
// right after its load, it stores that step in the progress word the host handed over (fd 5, see
// skh_progress_entry), so such a file costs one write (its answer), not two. Without a progress word
// it writes the loaded line with `"entry":"now"` instead. Either way the host knows which step of
// which file was running when the process died or stalled (see ManifestReader).
import Glibc
import SkillABI
import SkillLoading
import SkillSandbox
import SkillSandboxC
import SkillWire

let resultFD: Int32 = 3

extension Line {
    /// A C string field: null, the string, or `{"invalidUTF8":true}` so the host can name the field
    /// instead of silently repairing it.
    mutating func field(_ p: UnsafePointer<CChar>?) {
        guard let p else { return raw("null") }
        let u = UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))
        if u.contains(where: { $0 >= 0x80 }) && String(validating: u, as: UTF8.self) == nil {
            return raw("{\"invalidUTF8\":true}")
        }
        quoted(u)
    }

    /// A field that holds JSON text (a schema, keywords, examples, feeds). When the text is one JSON
    /// object or array that `JSONScan` accepts within `JSONLimits` — which the host's parser then
    /// accepts too — the value itself goes into the line, minified (white space outside strings
    /// dropped, so no raw newline reaches the line protocol), and the host takes it as parsed instead
    /// of parsing a string's text a second time. Anything else (NULL, a scalar, text that is not
    /// valid JSON, too deep, not UTF-8) goes as `field` writes it, so the host names the problem
    /// exactly as it always has; so does text that minifies to `field`'s own marker for bytes that
    /// are not UTF-8 (`{"invalidUTF8":true}`), which the host reads as that marker.
    mutating func jsonText(_ p: UnsafePointer<CChar>?) {
        guard let p else { return raw("null") }
        let u = UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))
        guard let first = u.first(where: { !JSONScan.isSpace($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              JSONScan.isValid(u, maxDepth: JSONLimits.maxDepth) else { return field(p) }
        let start = bytes.count
        minified(u)
        if bytes[start...].elementsEqual(#"{"invalidUTF8":true}"#.utf8) {
            bytes.removeSubrange(start...)
            quoted(u)
        }
    }

    /// Appends valid JSON text `u` without the white space between its tokens (runs copied whole,
    /// straight into the line: the result is never longer than `u`).
    mutating func minified(_ u: UnsafeBufferPointer<UInt8>) {
        guard let base = u.baseAddress else { return }
        JSONText.write(into: &bytes, room: u.count) { out in
            var start = 0, n = 0, inString = false, escaped = false
            for i in 0..<u.count {
                let c = base[i]
                if inString {
                    if escaped { escaped = false } else if c == 0x5c { escaped = true } else if c == 0x22 { inString = false }
                } else if c == 0x22 {
                    inString = true
                } else if JSONScan.isSpace(c) {
                    if i > start { (out + n).update(from: base + start, count: i - start); n += i - start }
                    start = i + 1
                }
            }
            if start < u.count { (out + n).update(from: base + start, count: u.count - start); n += u.count - start }
            return n
        }
    }

    /// Writes the line and its newline to the result pipe in one write (the line, consumed, is ended
    /// in place, not copied).
    consuming func emit() {
        bytes.append(0x0a)
        bytes.withUnsafeBytes { buf in
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
}

/// True when a struct of `size` bytes (as the skill compiled it) contains the field ending at `end`.
func has(_ size: UInt32, _ end: Int) -> Bool { ABINegotiation.has(size, end) }

func end<Root, T>(_ kp: KeyPath<Root, T>) -> Int { ABINegotiation.end(kp) }

func describeIntent(_ ip: UnsafePointer<skh_intent>, into l: inout Line) {
    let i = ip.pointee
    let size = i.struct_size
    l.raw("{")
    l.key("structSize"); l.number(size)
    if has(size, end(\skh_intent.flags)) { l.key("flags"); l.number(i.flags) }
    if has(size, end(\skh_intent.name)) { l.key("name"); l.field(i.name) }
    if has(size, end(\skh_intent.description)) { l.key("description"); l.field(i.description) }
    if has(size, end(\skh_intent.input_schema)) { l.key("inputSchema"); l.jsonText(i.input_schema) }
    if has(size, end(\skh_intent.output_schema)) { l.key("outputSchema"); l.jsonText(i.output_schema) }
    if has(size, end(\skh_intent.surfaces)) { l.key("surfaces"); l.number(i.surfaces) }
    if has(size, end(\skh_intent.priority)) { l.key("priority"); l.number(i.priority) }
    if has(size, end(\skh_intent.confidence)) {
        l.key("confidence")
        if i.confidence.isFinite { l.bytes.append(contentsOf: "\(i.confidence)".utf8) } else { l.raw("null") }
    }
    if has(size, end(\skh_intent.keywords)) { l.key("keywords"); l.jsonText(i.keywords) }
    if has(size, end(\skh_intent.examples)) { l.key("examples"); l.jsonText(i.examples) }
    if has(size, end(\skh_intent.version)) { l.key("version"); l.number(i.version) }
    if has(size, end(\skh_intent.feeds)) { l.key("feeds"); l.jsonText(i.feeds) }
    l.raw("}")
}

func describe(_ sp: UnsafePointer<skh_skill>, into l: inout Line) {
    let s = sp.pointee
    l.raw("{")
    l.key("abiMajor"); l.number(s.abi_major)
    l.key("abiMinor"); l.number(s.abi_minor)
    l.key("structSize"); l.number(s.struct_size)
    // Another major: read nothing beyond the version (its layout may differ).
    guard s.abi_major == UInt32(SKH_ABI_VERSION_MAJOR) else { return l.raw("}") }
    let size = s.struct_size
    if has(size, end(\skh_skill.flags)) { l.key("flags"); l.number(s.flags) }
    if has(size, end(\skh_skill.id)) { l.key("id"); l.field(s.id) }
    if has(size, end(\skh_skill.name)) { l.key("name"); l.field(s.name) }
    if has(size, end(\skh_skill.version)) { l.key("version"); l.field(s.version) }
    if has(size, end(\skh_skill.category)) { l.key("category"); l.field(s.category) }
    if has(size, end(\skh_skill.vendor)) { l.key("vendor"); l.field(s.vendor) }
    if has(size, end(\skh_skill.description)) { l.key("description"); l.field(s.description) }
    if has(size, end(\skh_skill.toolchain)) { l.key("toolchain"); l.field(s.toolchain) }
    if has(size, end(\skh_skill.`init`)) { l.key("hasInit"); l.bool(s.`init` != nil) }
    if has(size, end(\skh_skill.invoke)) { l.key("hasInvoke"); l.bool(s.invoke != nil) }
    if has(size, end(\skh_skill.health)) { l.key("hasHealth"); l.bool(s.health != nil) }
    if has(size, end(\skh_skill.release)) { l.key("hasRelease"); l.bool(s.release != nil) }
    if has(size, end(\skh_skill.abi_minor_required)) { l.key("abiMinorRequired"); l.number(s.abi_minor_required) }
    if has(size, end(\skh_skill.permissions)) { l.key("permissions"); describePermissions(s.permissions, into: &l) }
    if has(size, end(\skh_skill.intents)) {
        l.key("intentCount"); l.number(s.intent_count)
        if let intents = s.intents, s.intent_count <= 1024 {
            // Step by the skill's own struct size (the array may come from a newer minor).
            let stride = max(Int(intents.pointee.struct_size), 8)
            let base = UnsafeRawPointer(intents)
            l.key("intents")
            l.raw("[")
            for k in 0..<Int(s.intent_count) {
                if k > 0 { l.raw(",") }
                describeIntent(base.advanced(by: k * stride).assumingMemoryBound(to: skh_intent.self), into: &l)
            }
            l.raw("]")
        }
    }
    l.raw("}")
}

/// Pass one for one file: checks descriptor `spec` (read from the message `text`, nil when it could not be)
/// against the identity the host recorded and loads it (its static initializers run). The handle, or
/// the refusal line that is this file's answer.
func load(_ path: String, spec: (fd: Int32, identity: DescriptorIdentity)?, text: String) -> Result<UnsafeMutableRawPointer, SkillLoadError> {
    guard let (fd, identity) = spec else {
        return .failure(SkillLoadError(.loadFailed, "the scan process was given \"\(text)\" for \"\(path)\"; expected a descriptor with DEV:INO:SIZE:MTIME"))
    }
    return CheckedSkillFile.adopt(fd: fd, path: path, expected: identity).flatMap { SkillImage.load($0) }
}

/// `{"file":PATH,"status":"loaded"}`: pass one loaded `path` (the host's progress mark, not an answer);
/// `entryNow`: `,"entry":"now"` — the file's entry is called next, before the next file is loaded.
func loadedLine(_ path: String, entryNow: Bool) -> Line {
    var l = Line()
    l.raw("{")
    l.key("file"); l.quoted(path)
    l.key("status"); l.raw(entryNow ? "\"loaded\",\"entry\":\"now\"}" : "\"loaded\"}")
    return l
}

/// True when the image `handle` carries the Swift runtime (it or a library it needs defines
/// `swift_retain`; a handle's lookup sees only that image and its dependencies, not this process's
/// own copy of the runtime).
func carriesSwift(_ handle: UnsafeMutableRawPointer) -> Bool {
    dlsym(handle, "swift_retain") != nil
}

/// Pass two for one loaded file: calls its entry and describes what it declares (the file's answer).
func manifest(of path: String, handle: UnsafeMutableRawPointer) -> Line {
    var l = Line()
    // Room for a typical answer at once (a small C skill's is ~1.5 KB), not eight doublings and
    // copies of a growing array per file on the scan's critical path.
    l.bytes.reserveCapacity(4096)
    l.raw("{")
    l.key("file"); l.quoted(path)
    switch SkillImage.entry(handle, path: path) {
    case .failure(let e):
        return refused(e, into: &l)
    case .success(let skill):
        l.key("status"); l.raw("\"ok\"")
        l.key("skill"); describe(skill, into: &l)
        l.raw("}")
        return l
    }
}

/// The answer line for a file refused in pass one.
func refusedLine(_ path: String, _ e: SkillLoadError) -> Line {
    var l = Line()
    l.raw("{")
    l.key("file"); l.quoted(path)
    return refused(e, into: &l)
}

/// `"status":"refused"` with the loader's reason, message and hint, closing the line's object.
func refused(_ e: SkillLoadError, into l: inout Line) -> Line {
    l.key("status"); l.raw("\"refused\"")
    l.key("reason"); l.quoted(e.reason.rawValue)
    l.key("message"); l.quoted(e.message)
    if let hint = e.hint { l.key("hint"); l.quoted(hint) }
    l.raw("}")
    return l
}

/// `skillhost-scan -`: the files to read, from the socket on fd 4 until the host closes its end —
/// messages of `COUNT` NUL, then per file `DEV:INO:SIZE:MTIME` NUL `PATH` NUL, carrying the files'
/// descriptors in the same order (SCM_RIGHTS; see the host's ScanProcess), in order. Nothing is
/// loaded before the last one has come (the sandbox needs every file first). A file whose entry or
/// descriptor is missing, and each file of a message that cannot be read (COUNT of them, or one when
/// even that is unreadable), becomes a file without a descriptor, refused in pass one: the host
/// expects one answer per file it handed over, in order.
func receiveFiles() -> [(text: String, spec: (fd: Int32, identity: DescriptorIdentity)?, path: String)] {
    let socketFD: Int32 = 4
    let unreadable = "(a message the scan process could not read)"
    var files: [(text: String, spec: (fd: Int32, identity: DescriptorIdentity)?, path: String)] = []
    // The host sends at most 16 KiB of paths per message, plus one path of up to PATH_MAX.
    var buffer = [UInt8](repeating: 0, count: 65536)
    let maxFDs = Int(SKH_MAX_FDS_PER_MESSAGE)
    var fds = [Int32](repeating: -1, count: maxFDs)
    while true {
        var count: Int32 = 0, truncated: Int32 = 0
        let n = buffer.withUnsafeMutableBytes { b in
            fds.withUnsafeMutableBufferPointer { skh_recv_fds(socketFD, $0.baseAddress, &count, &truncated, b.baseAddress, b.count) }
        }
        if n == 0 { break }
        if n < 0 {
            if errno == EINTR { continue }
            exit(3)  // the host is gone
        }
        var cursor = 0
        /// The next NUL-terminated field of the message (the rest of it when there is no NUL).
        func field() -> ArraySlice<UInt8>? {
            guard cursor < n else { return nil }
            let end = buffer[cursor..<n].firstIndex(of: 0) ?? n
            defer { cursor = end + 1 }
            return buffer[cursor..<end]
        }
        let received = Int(count)
        guard let declared = field().flatMap({ Int(String(decoding: $0, as: UTF8.self)) }), (1...maxFDs).contains(declared) else {
            for k in 0..<received { close(fds[k]) }
            files.append((unreadable, nil, ""))
            continue
        }
        if truncated != 0 {  // its descriptors are closed
            for _ in 0..<declared { files.append((unreadable, nil, "")) }
            continue
        }
        for k in 0..<declared {
            let text = field().map { String(decoding: $0, as: UTF8.self) } ?? unreadable
            let path = field().map { String(decoding: $0, as: UTF8.self) } ?? ""
            let fd = k < received ? fds[k] : -1
            let identity = DescriptorIdentity(text: text)
            if fd >= 0, identity == nil { close(fd) }
            files.append((text, identity.flatMap { fd >= 0 ? (fd, $0) : nil }, path))
        }
        for k in min(declared, received)..<received { close(fds[k]) }
    }
    close(socketFD)
    return files
}

/// The descriptor of the progress word the host hands over (see skh_progress_entry); a scan process
/// started without one (a stand-in in tests) writes `loaded` lines with `"entry":"now"` instead.
let progressFD: Int32 = 5

/// `skillhost-scan -` (the files: see `receiveFiles`): pass one loads every file in order (a refusal is
/// that file's answer line; an image with Swift gets a `loaded` line; an image without Swift has its
/// entry called at once, the step stored in the progress word — or, without one, announced by a
/// `loaded` line with `"entry":"now"` — and is answered), pass two answers for every Swift image
/// loaded, in order; then exit 0.
func runScanMode(_ args: ArraySlice<String>) -> Never {
    guard args.elementsEqual(["-"]) else {
        _ = "usage: skillhost-scan -\n(the files come over fd 4; started by skillhost, not by hand)\n".withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    // The files (descriptor, identity, and the path that names the file and is what the sandbox allows).
    let progress = skh_progress_map(progressFD)
    let pairs = receiveFiles()
    Sandbox.applyForScan(files: pairs.map { ($0.path, $0.spec?.fd) })
    var loaded: [(path: String, handle: UnsafeMutableRawPointer)] = []
    loaded.reserveCapacity(pairs.count)
    for (index, (text, spec, path)) in pairs.enumerated() {
        switch load(path, spec: spec, text: text) {
        case .failure(let e): refusedLine(path, e).emit()
        case .success(let handle):
            if carriesSwift(handle) {
                loaded.append((path, handle))
                loadedLine(path, entryNow: false).emit()
            } else {
                if let progress {
                    skh_progress_entry(progress, UInt32(index))
                } else {
                    loadedLine(path, entryNow: true).emit()
                }
                manifest(of: path, handle: handle).emit()
            }
        }
    }
    for (path, handle) in loaded {
        manifest(of: path, handle: handle).emit()
    }
    exit(0)
}
