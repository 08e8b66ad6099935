#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread made with `pthread_create`, whose failure is an answer rather
/// than a trap or a wait: Foundation's `Thread` and Dispatch's queues and
/// sources trap (libdispatch's event loop needs an epoll and an eventfd
/// descriptor) or wait in `_dispatch_temporary_resource_shortage` when the
/// machine has no descriptor or thread to give. A caller that gets an error
/// does the work where it is, or goes without (DESIGN §14).
package enum DetachedThread {
  private final class Body {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }

  /// Runs `body` on a new detached thread: 0, or the error that kept the thread from being made (EAGAIN).
  @discardableResult
  package static func start(_ body: @escaping () -> Void) -> Int32 {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let result = pthread_create(&thread, &attributes, { DetachedThread.enter($0) }, box)
    if result != 0 { Unmanaged<Body>.fromOpaque(box).release() }
    return result
  }

  private static func enter(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
    return nil
  }
}
