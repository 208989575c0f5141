// The normalisations' shared checks (src/aclnn/norm_checks.h).

#include "src/aclnn/norm_checks.h"

#include <string>

#include "src/aclnn/operand_checks.h"
#include "src/core/check.h"

namespace hostnn {

using Item = CheckedOperand;

// Storage, then overlap: out (the first output) may be the first input exactly (in place);
// no other output may share memory with an input, and no two outputs share a byte.
Status CheckNormStorage(const char* op, std::initializer_list<Item*> ins,
                        std::initializer_list<Item*> outs) {
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, ins));
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, outs));
  for (const Item* o : outs) {
    if (!o->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, o->param, *o->view, o->span));
    for (const Item* in : ins) {
      if (!in->given()) continue;
      HOSTNN_RETURN_IF_ERROR(
          core::CheckAliasing(op, o->param, *o->view, o->span, in->param, *in->view, in->span));
    }
  }
  for (auto a = outs.begin(); a != outs.end(); ++a) {
    for (auto b = a + 1; b != outs.end(); ++b) {
      if ((*a)->given() && (*b)->given() && !core::SpansApart((*a)->span, (*b)->span)) {
        return core::InvalidParam(op, (*b)->param, std::string("must not overlap ") + (*a)->param);
      }
    }
  }
  return Status::Ok();
}

// A gradient's outputMask: given, of 3 values, and every output it asks for given (wanted[k]
// its values). A null mask or asked-for output is 161001 where nulls_are_nullptr (LayerNorm
// Backward's op_api), 161002 otherwise (GroupNormBackward's).
Status ReadOutputMask(const char* op, const OpArgs& args, const CheckedOperand* outs,
                      bool nulls_are_nullptr, bool* wanted) {
  const auto null = [&](const std::string& what) {
    const std::string message = std::string(op) + ": " + what;
    return nulls_are_nullptr ? Status::Nullptr(message) : Status::Invalid(message);
  };
  if (!args.bool_array_given) return null("outputMask is null");
  if (args.bool_array.size() != 3) {
    return core::InvalidParam(op, "outputMask",
                              "must have 3 values, got " + std::to_string(args.bool_array.size()));
  }
  for (int k = 0; k < 3; ++k) {
    wanted[k] = args.bool_array[static_cast<size_t>(k)];
    if (wanted[k] && !outs[k].given()) {
      return null(std::string(outs[k].param) + " is null where outputMask asks for it");
    }
  }
  return Status::Ok();
}

}  // namespace hostnn
