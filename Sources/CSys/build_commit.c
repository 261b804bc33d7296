// The commit the binary was built from, when the build names it (Package.swift: SIWA_MOCK_COMMIT in the
// environment becomes this define); NULL otherwise. Alone in its file so that a new commit recompiles
// only this file.
#include "csys.h"

const char *csys_build_commit(void) {
#ifdef SIWA_MOCK_COMMIT
    return SIWA_MOCK_COMMIT;
#else
    return NULL;
#endif
}
