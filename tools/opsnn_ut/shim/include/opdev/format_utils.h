// Harness shim: op::ToString for a format (the framework names formats in its case JSON).
#ifndef HOSTNN_OPSNN_UT_OPDEV_FORMAT_UTILS_H_
#define HOSTNN_OPSNN_UT_OPDEV_FORMAT_UTILS_H_

#include "opdev/common_types.h"

namespace op {

inline ShimString ToString(Format format) {
  switch (format) {
    case ACL_FORMAT_NCHW: return ShimString("NCHW");
    case ACL_FORMAT_NHWC: return ShimString("NHWC");
    case ACL_FORMAT_ND: return ShimString("ND");
    case ACL_FORMAT_NC1HWC0: return ShimString("NC1HWC0");
    case ACL_FORMAT_FRACTAL_Z: return ShimString("FRACTAL_Z");
    case ACL_FORMAT_NC1HWC0_C04: return ShimString("NC1HWC0_C04");
    case ACL_FORMAT_HWCN: return ShimString("HWCN");
    case ACL_FORMAT_NDHWC: return ShimString("NDHWC");
    case ACL_FORMAT_FRACTAL_NZ: return ShimString("FRACTAL_NZ");
    case ACL_FORMAT_NCDHW: return ShimString("NCDHW");
    case ACL_FORMAT_NDC1HWC0: return ShimString("NDC1HWC0");
    case ACL_FRACTAL_Z_3D: return ShimString("FRACTAL_Z_3D");
    case ACL_FORMAT_NC: return ShimString("NC");
    case ACL_FORMAT_NCL: return ShimString("NCL");
    default: return ShimString("UNDEFINED");
  }
}

}  // namespace op

#endif  // HOSTNN_OPSNN_UT_OPDEV_FORMAT_UTILS_H_
