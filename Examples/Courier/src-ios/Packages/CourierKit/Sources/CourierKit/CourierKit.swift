import Courier

public func welcome() -> String { greeting() }
