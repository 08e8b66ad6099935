/// Text that is HTML, and the only text the pages are built of: duet's own
/// markup as literals, `HTMLText`'s escaping, and joins of these (see
/// `Escaped`). A lane's name, a number or a time interpolated into HTML is
/// escaped on the way in, whatever its variable is called.
package typealias HTML = Escaped<HTMLText>
