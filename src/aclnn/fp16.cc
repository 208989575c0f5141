// aclFloat16ToFloat / aclFloatToFloat16: CANN's host conversions of FLOAT16 values (its
// sample programs print FLOAT16 results through them), by the kernels' own conversions,
// so a value converted here has the bits the operators read and write.

#include "acl/acl_base.h"
#include "base/entry_alias.h"
#include "src/exec/scalar_conversion.h"
#include "src/runtime/runtime.h"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) {
  return hostnn::runtime::Entry("aclFloat16ToFloat", 0.0f, [&] {
    return hostnn::exec::ScalarToF32(hostnn::DType::kFloat16, &value);
  });
}

aclFloat16 aclFloatToFloat16(float value) {
  return hostnn::runtime::Entry("aclFloatToFloat16", aclFloat16{0}, [&] {
    aclFloat16 out = 0;
    hostnn::exec::ScalarFromF32(value, hostnn::DType::kFloat16, &out);
    return out;
  });
}

}  // extern "C"

HOSTNN_ENTRY_ALIAS(aclFloat16ToFloat)
HOSTNN_ENTRY_ALIAS(aclFloatToFloat16)
