import DuetSupport

/// Markdown of GitHub's step summary, built only of duet's literal syntax,
/// `MarkdownText`'s escaping and joins of these (see `Escaped`): a lane's
/// name, a reason or a log line interpolated into it is escaped for where it
/// goes on the way in, whatever its variable is called.
typealias Markdown = Escaped<MarkdownText>
