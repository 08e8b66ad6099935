/// The git commit this binary was built from. A plain `swift build` compiles this
/// file as committed; `make` writes the commit here for its build and then puts
/// the committed text back (see the Makefile), so a clone always builds.
let duetBuildCommit = "unknown commit"
