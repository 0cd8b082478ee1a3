import Dispatch
import SkillWire

extension CallDeadline {
    /// The deadline at `time` (its `uptimeNanoseconds`: the same monotonic clock `CallDeadline` reads).
    init(_ time: DispatchTime) { self.init(uptimeNs: time.uptimeNanoseconds) }
}
