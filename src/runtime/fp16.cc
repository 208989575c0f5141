// aclFloat16ToFloat / aclFloatToFloat16: CANN's host conversions of FLOAT16 values (its
// sample programs print FLOAT16 results through them), by the kernels' own conversions,
// so a value converted here has the bits the operators read and write.

#include "acl/acl_base.h"
#include "kernels/kernels.h"
#include "src/cann/entry_alias.h"
#include "src/runtime/runtime.h"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) {
  return hostnn::runtime::Entry("aclFloat16ToFloat", 0.0f, [&] {
    float out = 0.0f;
    hostnn::kernels::GetToF32(hostnn::DType::kFloat16)(&value, &out, 1);
    return out;
  });
}

aclFloat16 aclFloatToFloat16(float value) {
  return hostnn::runtime::Entry("aclFloatToFloat16", aclFloat16{0}, [&] {
    aclFloat16 out = 0;
    hostnn::kernels::GetFromF32(hostnn::DType::kFloat16)(&value, &out, 1);
    return out;
  });
}

}  // extern "C"

HOSTNN_ENTRY_ALIAS(aclFloat16ToFloat)
HOSTNN_ENTRY_ALIAS(aclFloatToFloat16)
