/// Text that is `/bin/sh` source, and the only text the git hook and the
/// commands duet writes for a shell are built of: duet's own script as
/// literals, `ShellWord`'s quoting, and joins of these (see `Escaped`). A path
/// or a lane's name interpolated into it is one quoted word, whatever its
/// variable is called.
package typealias ShellText = Escaped<ShellWord>
