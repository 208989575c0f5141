// An operand over its own shape beside a norm's rows (a weight, a per-row statistic, a
// per-channel running mean): its layout and codec, gathered to f32 whole once per run and
// written back whole. The row executor takes a normalisation's and BatchNorm's so
// (rows_executor.cc).
#ifndef HOSTNN_SRC_EXEC_OWN_OPERAND_H_
#define HOSTNN_SRC_EXEC_OWN_OPERAND_H_

#include <cstdint>

#include "src/exec/gather.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct OwnOperand {
  bool given = false;
  core::FusedLayout layout;
  OperandCodec codec;
};
// A null view is not given (and succeeds).
inline Status MakeOwn(Op op, const Operand& o, OwnOperand* out) {
  if (o.view == nullptr) return Status::Ok();
  out->given = true;
  out->codec = MakeCodec(o.view->dtype);
  return FuseOwn(op, o, &out->layout);
}
// Gathers n values of a given operand to f32; writes n values to one (nothing where it is
// not given).
inline void GatherOwn(const OwnOperand& o, int64_t n, float* values) {
  GatherF32(o.layout, o.layout.operands[0], o.codec, 0, n, values);
}
inline void WriteOwn(const OwnOperand& o, const float* values, int64_t n) {
  if (o.given) ScatterF32(o.layout, o.layout.operands[0], o.codec, 0, n, values);
}

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_OWN_OPERAND_H_
