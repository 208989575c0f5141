// Harness shim: aclOpExecutor, completed in common_types.h so that `delete executor`
// hands it back to hostnn (aclDestroyAclOpExecutor).
#ifndef HOSTNN_OPSNN_UT_OPDEV_OP_EXECUTOR_H_
#define HOSTNN_OPSNN_UT_OPDEV_OP_EXECUTOR_H_

#include "opdev/common_types.h"

#endif  // HOSTNN_OPSNN_UT_OPDEV_OP_EXECUTOR_H_
