/* CANN-compatible base types for hostnn: error codes, data types, formats.
 * Values are CANN's, so code written for CANN compiles and behaves unchanged.
 * Plain C: usable from C and C++. */
#ifndef HOSTNN_ACL_ACL_BASE_H_
#define HOSTNN_ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#ifndef __cplusplus
#include <stdbool.h> /* the operators' bool flags (aclnnLeakyReluBackward's selfIsResult) */
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define ACL_FUNC_VISIBILITY __declspec(dllexport)
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

typedef int aclError;
typedef uint16_t aclFloat16; /* IEEE binary16 bits */
typedef void* aclrtStream;
typedef void* aclrtContext;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INTERNAL_ERROR = 507000;
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500002;

typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33,
  /* Widens the enum to all of int32, so that any value a caller passes (hostnn refuses
   * unknown ones with 161002) is a valid aclDataType in C++ too. */
  ACL_DT_RESERVED_MIN_ = -0x7FFFFFFF - 1,
  ACL_DT_RESERVED_MAX_ = 0x7FFFFFFF
} aclDataType;

typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47,
  ACL_FORMAT_RESERVED_MIN_ = -0x7FFFFFFF - 1, /* widen the enum to all of int32 */
  ACL_FORMAT_RESERVED_MAX_ = 0x7FFFFFFF
} aclFormat;

/* IEEE binary16 bits to float (exact), and float to binary16 rounded to nearest even. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACL_ACL_BASE_H_ */
