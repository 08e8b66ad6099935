import DuetSupport

/// Text that is XML, and the only text the JUnit report is built of: duet's
/// own markup as literals, `XMLText`'s escaping, and joins of these (see
/// `Escaped`). A lane's name, a reason or a log tail interpolated into it is
/// escaped on the way in, whatever its variable is called.
typealias XML = Escaped<XMLText>
