import Foundation
import DuetApp

exit(Entrypoint.main(buildCommit: duetBuildCommit))
