/* CANN-compatible aclnn base header: status codes, aclTensor, aclOpExecutor. */
#ifndef HOSTNN_ACLNN_ACLNN_BASE_H_
#define HOSTNN_ACLNN_ACLNN_BASE_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"

#endif /* HOSTNN_ACLNN_ACLNN_BASE_H_ */
