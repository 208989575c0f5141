// The operand checks every kind's front end shares (src/aclnn/operand_checks.h).

#include "src/aclnn/operand_checks.h"

#include <string>

namespace hostnn {

Status CheckGiven(const char* op, OperandList required) {
  for (const CheckedOperand* v : required) {
    if (!v->given()) return Status::Nullptr(std::string(op) + ": " + v->param + " is null");
  }
  return Status::Ok();
}

Status CheckDescriptors(const char* op, OperandList operands, int max_rank) {
  for (const CheckedOperand* v : operands) {
    if (!v->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, max_rank));
    HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  return Status::Ok();
}

Status CheckStorages(const char* op, OperandList operands) {
  for (CheckedOperand* v : operands) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v->param, *v->view, &v->span));
  }
  return Status::Ok();
}

Status CheckWrittenApart(const char* op, OperandList written, OperandList others) {
  for (const CheckedOperand* w : written) {
    HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, w->param, *w->view, w->span));
    for (const CheckedOperand* v : others) {
      if (v != w && v->given()) HOSTNN_RETURN_IF_ERROR(CheckApart(op, *w, *v));
    }
  }
  return Status::Ok();
}

}  // namespace hostnn
