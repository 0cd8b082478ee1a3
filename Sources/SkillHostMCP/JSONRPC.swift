import SkillHostCore
import SkillWire

/// JSON-RPC 2.0 as MCP's stdio transport uses it: one message per line, no batches.
enum JSONRPC {
    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602

    /// One line from the client, classified.
    enum Incoming {
        case request(id: JSON, method: String, params: JSONObject)
        case notification(method: String, params: JSONObject)
        /// A response to a request of ours (we send none) or anything else to ignore.
        case ignored
        /// Not a valid message: answer with this error (id null when the line had none usable).
        case invalid(id: JSON, code: Int, message: String)
    }

    static func classify(_ line: [UInt8]) -> Incoming {
        let message: JSON
        do { message = try JSON.parse(line) } catch {
            return .invalid(id: .null, code: parseError, message: "Parse error: \(error)")
        }
        if case .array = message {
            return .invalid(id: .null, code: invalidRequest, message: "Invalid Request: batches are not supported (send one JSON-RPC message per line)")
        }
        guard case .object(let o) = message else {
            return .invalid(id: .null, code: invalidRequest, message: "Invalid Request: expected a JSON object, found \(message.typeDescription)")
        }
        let id = o["id"]
        if let id, !Self.validID(id) {
            return .invalid(id: .null, code: invalidRequest, message: "Invalid Request: \"id\" must be a string or an integer")
        }
        guard o["jsonrpc"] == .string("2.0") else {
            return .invalid(id: id ?? .null, code: invalidRequest, message: "Invalid Request: \"jsonrpc\" must be \"2.0\"")
        }
        guard let m = o["method"] else {
            if id != nil, o["result"] != nil || o["error"] != nil { return .ignored }
            return .invalid(id: id ?? .null, code: invalidRequest, message: "Invalid Request: no \"method\"")
        }
        guard let method = m.stringValue else {
            return .invalid(id: id ?? .null, code: invalidRequest, message: "Invalid Request: \"method\" must be a string")
        }
        var params = JSONObject()
        switch o["params"] {
        case nil: break
        case .object(let p)?: params = p
        case let p?:
            return .invalid(id: id ?? .null, code: id == nil ? invalidRequest : invalidParams, message: "Invalid params: \"params\" must be an object, found \(p.typeDescription)")
        }
        guard let id else { return .notification(method: method, params: params) }
        return .request(id: id, method: method, params: params)
    }

    static func validID(_ id: JSON) -> Bool {
        switch id {
        case .string, .int: return true
        default: return false
        }
    }

    static func result(_ id: JSON, _ result: JSON) -> JSON {
        .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("result", result)]))
    }

    static func error(_ id: JSON, _ code: Int, _ message: String) -> JSON {
        .object(JSONObject([("jsonrpc", "2.0"), ("id", id),
                            ("error", .object(JSONObject([("code", .int(Int64(code))), ("message", .string(message))])))]))
    }

    static func notification(_ method: String, _ params: JSON) -> JSON {
        .object(JSONObject([("jsonrpc", "2.0"), ("method", .string(method)), ("params", params)]))
    }
}

extension JSON {
    /// The compact JSON text as UTF-8 bytes, what a transport writes (no String in between).
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }
}

/// A JSON-RPC message as its compact JSON text (UTF-8, no newline): what a request's `finish` hands
/// the transports, which write it as it is. Made from a tree (`init(_:)`) or, for a call's response,
/// written directly around the result's text (`response(id:resultText:)`), so a call's result is never
/// built into a tree only to be written out again.
struct RPCMessage: Sendable {
    let bytes: [UInt8]

    init(_ message: JSON) { bytes = message.bytes }

    /// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` where `resultText` is RESULT's JSON text.
    static func response(id: JSON, resultText: [UInt8]) -> RPCMessage {
        var out: [UInt8] = []
        out.reserveCapacity(resultText.count + 48)
        JSONText.append(#"{"jsonrpc":"2.0","id":"#, to: &out)
        id.write(to: &out)
        JSONText.append(#","result":"#, to: &out)
        out.append(contentsOf: resultText)
        out.append(0x7d)
        return RPCMessage(bytes: out)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }
}

/// An error a handler answers with instead of a result.
struct RPCError: Error {
    let code: Int
    let message: String
    init(_ code: Int, _ message: String) { (self.code, self.message) = (code, message) }
}
