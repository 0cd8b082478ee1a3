internal import SkillABI

/// C entry points, one set per registry slot. A `@convention(c)` function cannot capture anything, so the
/// slot number is written into each closure literally.
enum Thunks {
    typealias InitFn = @convention(c) (UnsafePointer<skh_host>?) -> Int32
    typealias InvokeFn = @convention(c) (UnsafePointer<skh_call>?) -> Void
    typealias HealthFn = @convention(c) (UnsafePointer<skh_host>?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32

    static func initFunction(_ slot: Int) -> InitFn {
        switch slot {
        case 0: { Bridge.initialize(0, $0) }
        case 1: { Bridge.initialize(1, $0) }
        case 2: { Bridge.initialize(2, $0) }
        case 3: { Bridge.initialize(3, $0) }
        case 4: { Bridge.initialize(4, $0) }
        case 5: { Bridge.initialize(5, $0) }
        case 6: { Bridge.initialize(6, $0) }
        case 7: { Bridge.initialize(7, $0) }
        default: fatalError("SkillKit: no thunk for slot \(slot)")
        }
    }

    static func invokeFunction(_ slot: Int) -> InvokeFn {
        switch slot {
        case 0: { Bridge.invoke(0, $0) }
        case 1: { Bridge.invoke(1, $0) }
        case 2: { Bridge.invoke(2, $0) }
        case 3: { Bridge.invoke(3, $0) }
        case 4: { Bridge.invoke(4, $0) }
        case 5: { Bridge.invoke(5, $0) }
        case 6: { Bridge.invoke(6, $0) }
        case 7: { Bridge.invoke(7, $0) }
        default: fatalError("SkillKit: no thunk for slot \(slot)")
        }
    }

    static func healthFunction(_ slot: Int) -> HealthFn {
        switch slot {
        case 0: { Bridge.health(0, $0, $1, $2) }
        case 1: { Bridge.health(1, $0, $1, $2) }
        case 2: { Bridge.health(2, $0, $1, $2) }
        case 3: { Bridge.health(3, $0, $1, $2) }
        case 4: { Bridge.health(4, $0, $1, $2) }
        case 5: { Bridge.health(5, $0, $1, $2) }
        case 6: { Bridge.health(6, $0, $1, $2) }
        case 7: { Bridge.health(7, $0, $1, $2) }
        default: fatalError("SkillKit: no thunk for slot \(slot)")
        }
    }
}
