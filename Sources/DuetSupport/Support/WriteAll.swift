import Foundation

/// Writes all of `bytes` to `fd`, again after a short write or an interrupted
/// one (`EINTR`); returns nil, or the `errno` of the write that failed. The one
/// write loop of duet's files: atomic writes, lane logs, appended summaries.
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
  guard let base = bytes.baseAddress else { return nil }
  var offset = 0
  while offset < bytes.count {
    let n = Foundation.write(fd, base + offset, bytes.count - offset)
    if n < 0 {
      if errno == EINTR { continue }
      return errno
    }
    offset += n
  }
  return nil
}
