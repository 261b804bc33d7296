#ifndef SIWA_BUILD_INFO_H
#define SIWA_BUILD_INFO_H
// What the build was given (Package.swift): only the executable depends on this module, so a new value
// recompiles this file and the executable's own module, nothing else.

/// The commit hash the build was given (SIWA_MOCK_COMMIT, see Package.swift), or NULL.
const char *siwa_build_commit(void);

#endif
