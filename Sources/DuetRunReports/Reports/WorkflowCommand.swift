import DuetSupport

/// A GitHub Actions workflow command line, built only of duet's literal
/// command syntax, `WorkflowCommandText`'s escaping and joins of these (see
/// `Escaped`): a lane's name or message interpolated into it is escaped on
/// the way in, whatever its variable is called.
typealias WorkflowCommand = Escaped<WorkflowCommandText>
