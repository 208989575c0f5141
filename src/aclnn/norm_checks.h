// What the normalisations' front ends share (norm_front_end.cc, batch_norm_front_end.cc): the
// storage and overlap checks of their operands, and a gradient's outputMask.
#ifndef HOSTNN_SRC_ACLNN_NORM_CHECKS_H_
#define HOSTNN_SRC_ACLNN_NORM_CHECKS_H_

#include <initializer_list>

#include "hostnn/ops.h"
#include "src/aclnn/front_end.h"

namespace hostnn {

// Storage, then overlap: out (the first output) may be the first input exactly (in place);
// no other output may share memory with an input, and no two outputs share a byte.
Status CheckNormStorage(const char* op, std::initializer_list<CheckedOperand*> ins,
                        std::initializer_list<CheckedOperand*> outs);

// A gradient's outputMask: given, of 3 values, and every output it asks for given (wanted[k]
// its values). A null mask or asked-for output is 161001 where nulls_are_nullptr (LayerNorm
// Backward's op_api), 161002 otherwise (GroupNormBackward's).
Status ReadOutputMask(const char* op, const OpArgs& args, const CheckedOperand* outs,
                      bool nulls_are_nullptr, bool* wanted);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_NORM_CHECKS_H_
