// Harness shim: the export macro that ops-nn's operator headers put on their declarations.
#ifndef HOSTNN_OPSNN_UT_ACLNN_UTIL_H_
#define HOSTNN_OPSNN_UT_ACLNN_UTIL_H_

#include "aclnn/aclnn_base.h"

#ifndef ACLNN_API
#define ACLNN_API ACL_FUNC_VISIBILITY
#endif

#endif  // HOSTNN_OPSNN_UT_ACLNN_UTIL_H_
