/// The version `duet --version` prints and history records.
let duetVersion = "0.1.0"
