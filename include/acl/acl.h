/* CANN-compatible umbrella header: the runtime subset plus tensor creation. */
#ifndef HOSTNN_ACL_ACL_H_
#define HOSTNN_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"

#endif /* HOSTNN_ACL_ACL_H_ */
