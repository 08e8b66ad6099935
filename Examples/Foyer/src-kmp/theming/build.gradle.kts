plugins {
  kotlin("multiplatform")
}

base.archivesName.set("theming")

// The theming module: the token vocabularies and the value table generated from
// parity/design-tokens.yaml (`Generated/`, written by `duet design-tokens` and
// gated by `duet design-tokens --check`).
kotlin {
  jvm()
}
