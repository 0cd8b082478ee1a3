/// The one nesting limit for JSON on both sides of the wire, so that a value one side accepts the
/// other never refuses (an input between two limits would kill a worker and be blamed on its skill).
///
/// - `maxDepth`: the deepest value anyone may send: call input (checked by the host, which answers
///   `invalid_input` before any worker sees it), results, context-store values, health details.
/// - `frameDepth`: what a frame reader accepts: a `maxDepth` value embedded in a frame (a frame adds
///   at most two levels: the frame object and a member such as `view`).
public enum JSONLimits {
    public static let maxDepth = 256
    public static let frameDepth = maxDepth + 4
}
