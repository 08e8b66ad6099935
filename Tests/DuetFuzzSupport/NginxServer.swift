import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real nginx on loopback serving WebDAV PUT and GET, as a team's remote
/// cache does, for the tests of the remote-cache client. Everything it writes
/// (config, pid file, logs, request-body temp files, the stored objects) is in
/// its own temporary folder, it runs in the foreground as this process's child
/// (`daemon off`, one process: `master_process off`), and `stop` ends it by its
/// pid. It lives here, in the support target both test targets link, so the
/// command-line tests of `duet cache` can start one too.
///
/// Locations, all over one store (`root/cache/`):
/// - `/cache/`: open, PUT creates folders as needed, no body size limit;
/// - `/bearer/`: the same store, 401 unless `Authorization: Bearer <token>`;
/// - `/basic/`: the same store behind basic auth (`{PLAIN}` htpasswd);
/// - `/slow/`: the same store, GET only, at `slowBytesPerSecond`;
/// - `/chunked/`: the same store, GET only, chunked with no Content-Length
///   (the SSI filter drops it; bytes without `<!--#` pass unchanged);
/// - `/fail/`: every request answered 500.
package final class NginxServer {
  /// The server's own folder; `root/cache/` holds what was PUT.
  package let folder: URL
  package let port: Int
  /// nginx's process id, until `stop` reaps it.
  package let pid: pid_t
  private var exited = false

  /// `http://127.0.0.1:<port>`.
  package var origin: String { "http://127.0.0.1:\(port)" }

  /// `origin/location`, e.g. `url("cache")` for the open store.
  package func url(_ location: String) -> String { "\(origin)/\(location)" }

  /// The file a PUT to `<location>/<path>` stored.
  package func stored(_ path: String) -> URL { folder.appendingPathComponent("root/cache/\(path)") }

  /// The requests served so far, one `(connection, method, path, status)` per
  /// line of the access log (nginx writes each as it ends): the tests count
  /// connections with it to see keep-alive at work.
  package func requests() -> [(connection: String, method: String, path: String, status: String)] {
    let log = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    return log.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ").map(String.init)
      return fields.count == 4 ? (fields[0], fields[1], fields[2], fields[3]) : nil
    }
  }

  /// Why a server did not start: nginx missing (with the command that installs
  /// it), or nginx exiting, with the end of its error log.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Starts nginx on a free loopback port and returns once it answers there.
  /// Fails (never skips) when nginx is not installed.
  package static func start(
    bearerToken: String = "test-bearer-token", basicUser: String = "cacheuser", basicPassword: String = "basic-pa55word",
    slowBytesPerSecond: Int = 100
  ) throws -> NginxServer {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-nginx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("root/cache"), withIntermediateDirectories: true)
    try Data("\(basicUser):{PLAIN}\(basicPassword)\n".utf8).write(to: folder.appendingPathComponent("htpasswd"))
    return try launch(in: folder) { port in
      configuration(folder: folder.path, port: port, bearerToken: bearerToken, slowBytesPerSecond: slowBytesPerSecond)
    }
  }

  /// nginx serving `serverBlock`, docs/verify.md's configuration as a team
  /// copies it, changed only where a machine's differ: its `listen 8080` is a
  /// free loopback port, and `root` (the folder the page says to make, owned
  /// by the user nginx writes as) is `root/` in the server's own folder. The
  /// main `nginx.conf` around it (pid, logs, temporary folders) is the
  /// server's, as a distribution's is.
  package static func start(documented serverBlock: String, root: String) throws -> NginxServer {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-nginx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("root"), withIntermediateDirectories: true)
    return try launch(in: folder) { port in
      let block = serverBlock.replacingOccurrences(of: "listen 8080;", with: "listen 127.0.0.1:\(port);")
        .replacingOccurrences(of: root, with: folder.appendingPathComponent("root").path)
      try? Data(block.utf8).write(to: folder.appendingPathComponent("documented.conf"))
      return mainConfiguration(folder: folder.path, servers: "include \(folder.path)/documented.conf;")
    }
  }

  /// Starts nginx in `folder` with the configuration `config` makes for a free port.
  private static func launch(in folder: URL, config: (Int) -> String) throws -> NginxServer {
    let searched = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/usr/local/sbin:/opt/homebrew/bin"
    guard let nginx = TestTools.find("nginx", path: searched) else {
      throw Failure(description: "nginx is not installed, and the remote-cache tests need it: run `tools/install-deps test` (it installs nginx-light; `make check` does it too)")
    }
    var lastError = ""
    for _ in 0..<5 {  // a free port can be taken between finding it and nginx binding it
      let port = try freePort()
      try Data(config(port).utf8).write(to: folder.appendingPathComponent("nginx.conf"))
      try? FileManager.default.removeItem(at: folder.appendingPathComponent("nginx.pid"))
      let arguments = [nginx, "-c", folder.appendingPathComponent("nginx.conf").path, "-p", folder.path + "/", "-e", folder.appendingPathComponent("error.log").path]
      let pid = try spawn(arguments)
      let server = NginxServer(folder: folder, port: port, pid: pid)
      if server.waitUntilAnswering() { return server }
      server.stop()
      lastError = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }
    throw Failure(description: "nginx did not start in \(folder.path): \(lastError.suffix(2000))")
  }

  private init(folder: URL, port: Int, pid: pid_t) {
    self.folder = folder
    self.port = port
    self.pid = pid
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// Ends nginx: SIGTERM (a fast shutdown), then SIGKILL if it is still there
  /// after 5 s, and reaps it. Safe to call twice.
  package func stop() {
    guard isRunning, isNginx else { return }
    kill(pid, SIGTERM)
    if eventually(within: 5, { !isRunning }) { return }
    guard isNginx else { return }
    kill(pid, SIGKILL)
    _ = eventually(within: 60) { !isRunning }
  }

  /// Whether `pid` is still nginx: a `waitpid(-1)` elsewhere in the test
  /// process (an in-process duet's subreaper) may reap it, and its number
  /// then go to the next child, a duet another test runs, which SIGTERM
  /// interrupted (a remote-cache test saw INTERRUPTED). Linux reads
  /// `/proc/PID/comm`; elsewhere the pid is trusted.
  private var isNginx: Bool {
    #if os(Linux)
    let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
    return name.hasPrefix("nginx")
    #else
    return true
    #endif
  }

  /// Whether nginx has not exited, reaping it when it has (a `waitpid(-1)`
  /// elsewhere in the test process may have reaped it first: ECHILD).
  package var isRunning: Bool {
    guard !exited else { return false }
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    if result == 0 || (result < 0 && errno == EINTR) { return true }
    exited = true
    return false
  }

  /// Starts `arguments` with stdin, stdout and stderr on /dev/null and every
  /// signal unblocked and at its default: a child inherits the blocked signals
  /// of the thread that spawns it, and the test threads (the concurrency
  /// pool's) block SIGTERM among others; an nginx that cannot see SIGTERM
  /// does not stop (Foundation's `Process` passes the mask on).
  private static func spawn(_ arguments: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    for fd in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
    guard result == 0 else { throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
    return pid
  }

  /// Whether nginx wrote its pid file (it does after binding its port) and
  /// accepts a connection there, within 10 s; false when it exited.
  private func waitUntilAnswering() -> Bool {
    let pidFile = folder.appendingPathComponent("nginx.pid").path
    let ready = eventually(within: 10) { !isRunning || (FileManager.default.fileExists(atPath: pidFile) && Self.connects(port: port)) }
    return ready && isRunning
  }

  private static func configuration(folder: String, port: Int, bearerToken: String, slowBytesPerSecond: Int) -> String {
    let store = "alias \(folder)/root/cache/; dav_methods PUT; create_full_put_path on; client_max_body_size 0;"
    return mainConfiguration(folder: folder, servers: """
      keepalive_requests 10000;
        server {
          listen 127.0.0.1:\(port);
          location /cache/ { \(store) }
          location /bearer/ { if ($http_authorization != "Bearer \(bearerToken)") { return 401; } \(store) }
          location /basic/ { auth_basic "cache"; auth_basic_user_file \(folder)/htpasswd; \(store) }
          location /slow/ { alias \(folder)/root/cache/; limit_rate \(slowBytesPerSecond); }
          location /chunked/ { alias \(folder)/root/cache/; ssi on; ssi_types *; }
          location /fail/ { return 500; }
        }
      """)
  }

  /// One process in the foreground, everything it writes in `folder`, and `servers` in its `http` block.
  private static func mainConfiguration(folder: String, servers: String) -> String {
    """
      daemon off;
      master_process off;
      worker_processes 1;
      pid \(folder)/nginx.pid;
      error_log \(folder)/error.log warn;
      events { worker_connections 1024; }
      http {
        log_format duet '$connection $request_method $uri $status';
        access_log \(folder)/access.log duet;
        client_body_temp_path \(folder)/client_body_temp;
        proxy_temp_path \(folder)/proxy_temp;
        fastcgi_temp_path \(folder)/fastcgi_temp;
        uwsgi_temp_path \(folder)/uwsgi_temp;
        scgi_temp_path \(folder)/scgi_temp;
        \(servers)
      }

      """
  }

  /// A loopback port nobody listens on now: the kernel's pick for port 0.
  private static func freePort() throws -> Int {
    let fd = socket(AF_INET, streamSocket, 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  package static func connects(port: Int) -> Bool {
    let fd = socket(AF_INET, streamSocket, 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
  }

  /// SOCK_STREAM, an enum case on Glibc and an Int32 on Darwin.
  #if canImport(Glibc)
    package static let streamSocket = Int32(SOCK_STREAM.rawValue)
  #else
    package static let streamSocket = SOCK_STREAM
  #endif

  /// 127.0.0.1:`port` as a socket address.
  package static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(clamping: port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}
