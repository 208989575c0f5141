// Each operator's phase 1 (checks in SPEC order, then resolve and plan), one per file in
// src/aclnn/, declared from the operator list.
#ifndef HOSTNN_SRC_ACLNN_OP_PREPARE_H_
#define HOSTNN_SRC_ACLNN_OP_PREPARE_H_

#include "hostnn/ops.h"

namespace hostnn {

#define HOSTNN_OP(Name, ...)                                                                 \
  Status Prepare##Name(const OpArgs& args, const tiling::Options& options, uint64_t* workspace_size, \
                       ExecutorPtr* executor);
#include "hostnn/op_list.def"
#undef HOSTNN_OP

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_OP_PREPARE_H_
