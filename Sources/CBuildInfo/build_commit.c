// The commit the binary was built from, when the build names it (Package.swift: SIWA_MOCK_COMMIT in the
// environment becomes this define); NULL otherwise.
#include "build_info.h"
#include <stddef.h>

const char *siwa_build_commit(void) {
#ifdef SIWA_MOCK_COMMIT
    return SIWA_MOCK_COMMIT;
#else
    return NULL;
#endif
}
