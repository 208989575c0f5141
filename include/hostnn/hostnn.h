// hostnn's native C++ API in one include.
#ifndef HOSTNN_HOSTNN_H_
#define HOSTNN_HOSTNN_H_

#include "hostnn/dtype.h"
#include "hostnn/ops.h"
#include "hostnn/status.h"
#include "hostnn/tensor.h"
#include "hostnn/tiling.h"

#endif  // HOSTNN_HOSTNN_H_
